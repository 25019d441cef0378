/** The API's answers as the browser receives them (inferred from the router, so they never drift). */
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../server/api/root";

/** Every procedure's output type, e.g. `RouterOutputs["runs"]["get"]`. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/** `runs.get`: a run and its pending interrupts. */
export type RunDetail = RouterOutputs["runs"]["get"];
/** One pending interrupt of a run. */
export type PendingInterrupt = RunDetail["pendingInterrupts"][number];
/** One session of `sessions.graph`. */
export type GraphSession = RouterOutputs["sessions"]["graph"]["sessions"][number];
/** One chunk of a `sessions.chunks` page. */
export type SessionChunk = RouterOutputs["sessions"]["chunks"]["chunks"][number];
