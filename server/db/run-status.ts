/**
 * Run statuses and the only legal transitions between them (SPEC §6). Every status change in the run store goes
 * through `assertTransition`, so an illegal change is refused before anything is written.
 */
import { z } from "zod";
import { RathError } from "../../runtime/errors";

/** Every status a run can be in. */
export const RUN_STATUSES = [
  "queued",
  "running",
  "waiting",
  "needs_review",
  "succeeded",
  "failed",
  "cancelled",
  "timed_out",
] as const;

/** A run status, parsed at the boundary. */
export const RunStatus = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatus>;

/** Statuses a run never leaves. */
export const TERMINAL_RUN_STATUSES: readonly RunStatus[] = ["succeeded", "failed", "cancelled", "timed_out"];

/** For each status, the statuses it may move to; terminal statuses move nowhere. */
export const RUN_TRANSITIONS: Readonly<Record<RunStatus, readonly RunStatus[]>> = {
  queued: ["running", "cancelled", "timed_out"],
  running: ["queued", "waiting", "succeeded", "failed", "cancelled", "timed_out", "needs_review"],
  waiting: ["queued", "cancelled", "timed_out", "failed"],
  needs_review: ["queued", "failed", "cancelled"],
  succeeded: [],
  failed: [],
  cancelled: [],
  timed_out: [],
};

/** True when a run in `from` may move to `to`. */
export function canTransition(from: RunStatus, to: RunStatus): boolean {
  return RUN_TRANSITIONS[from].includes(to);
}

/** True when the status is terminal (succeeded, failed, cancelled, timed_out). */
export function isTerminalRunStatus(status: RunStatus): boolean {
  return TERMINAL_RUN_STATUSES.includes(status);
}

/** Throws a `conflict` RathError naming both statuses when `from -> to` is not a legal transition. */
export function assertTransition(from: RunStatus, to: RunStatus): void {
  if (canTransition(from, to)) return;
  const allowed = RUN_TRANSITIONS[from];
  throw new RathError(
    "conflict",
    `illegal run status transition ${from} -> ${to}; from ${from} the allowed targets are ${
      allowed.length === 0 ? "none (terminal)" : allowed.join(", ")
    }`,
    { details: { from, to } },
  );
}
