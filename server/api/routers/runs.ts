/**
 * Runs: start (idempotent by key), get, list, cancel, resume, forkFrom (a new run forked from a session at a chunk) and
 * lineage (forked from / forks of a run), effects and review (after a crash left tool calls
 * ambiguous), decideInterrupt, events (a page after a seq) and
 * `onEvents`, a subscription (SSE) that streams the run's events live and resumes after the last event id.
 */
import { tracked } from "@trpc/server";
import { z } from "zod";
import { followRunEvents } from "../../services/run-event-stream";
import { forkFromChunk, ForkFromRequest, forkPreview, ForkPreviewRequest, runLineage } from "../../services/fork-service";
import {
  cancelRun,
  decideInterrupt,
  DecideInterruptRequest,
  pendingInterrupts,
  getRunDetail,
  ListRunsRequest,
  listRunsPage,
  resumeRun,
  reviewRun,
  ReviewRunRequest,
  runEffects,
  runEvents,
  RunEventsRequest,
  startRun,
  StartRunRequest,
} from "../../services/run-service";
import { procedure, router } from "../trpc";
import { strictInput } from "../strict-input";

const RunId = z.object({ runId: z.string().min(1) });

/** Input of `runs.onEvents`: the run, and where to start (tRPC fills `lastEventId` when the client reconnects). */
export const OnEventsInput = z.object({
  runId: z.string().min(1),
  afterSeq: z.number().int().nonnegative().optional(),
  lastEventId: z.string().regex(/^\d+$/, "a lastEventId is an event seq").nullish(),
});

/** The `runs` router. */
export const runsRouter = router({
  start: procedure.input(strictInput(StartRunRequest)).mutation(({ ctx, input }) => startRun(ctx.database, ctx.executor, input)),
  get: procedure.input(strictInput(RunId)).query(({ ctx, input }) => getRunDetail(ctx.database, input.runId)),
  list: procedure.input(strictInput(ListRunsRequest.optional())).query(({ ctx, input }) => listRunsPage(ctx.database, input ?? {})),
  cancel: procedure.input(strictInput(RunId)).mutation(({ ctx, input }) => cancelRun(ctx.database, input.runId)),
  resume: procedure.input(strictInput(RunId)).mutation(({ ctx, input }) => resumeRun(ctx.database, ctx.executor, input.runId)),
  effects: procedure.input(strictInput(RunId)).query(({ ctx, input }) => runEffects(ctx.database, input.runId)),
  review: procedure.input(strictInput(ReviewRunRequest)).mutation(({ ctx, input }) => reviewRun(ctx.database, ctx.executor, input)),
  pendingInterrupts: procedure
    .input(strictInput(z.object({ runId: z.string().min(1).optional() }).optional()))
    .query(({ ctx, input }) => pendingInterrupts(ctx.database, input?.runId === undefined ? {} : { runId: input.runId })),
  decideInterrupt: procedure.input(strictInput(DecideInterruptRequest)).mutation(({ ctx, input }) => decideInterrupt(ctx.database, ctx.executor, input)),
  forkFrom: procedure.input(strictInput(ForkFromRequest)).mutation(({ ctx, input }) => forkFromChunk(ctx.database, ctx.executor, input)),
  forkPreview: procedure.input(strictInput(ForkPreviewRequest)).query(({ ctx, input }) => forkPreview(ctx.database, input)),
  lineage: procedure.input(strictInput(RunId)).query(({ ctx, input }) => runLineage(ctx.database, input.runId)),
  events: procedure.input(strictInput(RunEventsRequest)).query(({ ctx, input }) => runEvents(ctx.database, input)),
  onEvents: procedure.input(strictInput(OnEventsInput)).subscription(async function* ({ ctx, input, signal }) {
    const afterSeq = input.lastEventId != null ? Number(input.lastEventId) : (input.afterSeq ?? 0);
    for await (const event of followRunEvents(ctx.database, input.runId, { afterSeq, ...(signal ? { signal } : {}) })) {
      yield tracked(String(event.seq), event);
    }
  }),
});
