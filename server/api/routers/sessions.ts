/** The session graph of a run (sessions, lineage edges, usage, status, node ids, chunk counts), chunk pages, compare. */
import { z } from "zod";
import { compareSessions, CompareSessionsRequest } from "../../services/session-compare";
import { runSessionGraph, runSessionUsageByModel, sessionChunks, SessionChunksRequest, sessionSegments } from "../../services/session-service";
import { procedure, router } from "../trpc";
import { strictInput } from "../strict-input";

/** The `sessions` router. */
export const sessionsRouter = router({
  graph: procedure.input(strictInput(z.object({ runId: z.string().min(1) }))).query(({ ctx, input }) => runSessionGraph(ctx.database, input.runId)),
  chunks: procedure.input(strictInput(SessionChunksRequest)).query(({ ctx, input }) => sessionChunks(ctx.database, input)),
  usageByModel: procedure.input(strictInput(z.object({ runId: z.string().min(1) }))).query(({ ctx, input }) => runSessionUsageByModel(ctx.database, input.runId)),
  segments: procedure.input(strictInput(z.object({ sessionId: z.string().min(1) }))).query(({ ctx, input }) => sessionSegments(ctx.database, input.sessionId)),
  compare: procedure.input(strictInput(CompareSessionsRequest)).query(({ ctx, input }) => compareSessions(ctx.database, input)),
});
