/**
 * The session graph of a run for the run view: its sessions (lineage, usage, status, producing node, chunk
 * count) and lineage edges, and pages of one session's chunks by index (never a whole long session at once).
 */
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import { topologicalOrder } from "../../runtime/session/graph";
import type { Usage } from "../../runtime/session/usage";
import { cumulativeUsages, totalUsage } from "../../runtime/session/usage-rollup";
import type { Database } from "../db/database";
import { chunkPage, getSession, sessionGraph } from "../db/session-store";
import { requireRun } from "./run-service";
import { chunkView, runView, sessionView, type ChunkView, type RunView, type SessionEdgeView, type SessionView } from "./views";

/** A session of the graph with its cumulative usage: its own plus every distinct ancestor's in the run. */
export interface GraphSessionView extends SessionView {
  cumulativeUsage: Usage | null;
}

/**
 * The graph of a run: the run, its sessions in topological order (parents first; otherwise by creation time, then
 * id), every lineage edge into them, the run's total usage (the sum of own usage: each model call once), and the
 * last event seq the graph includes (a live view follows `runs.onEvents` from there).
 */
export interface SessionGraphView {
  run: RunView;
  sessions: GraphSessionView[];
  edges: SessionEdgeView[];
  totalUsage: Usage | null;
  /** Every event up to this seq is reflected in the graph (events after it may be too: applying them is idempotent). */
  eventSeq: number;
}

/** Returns the session graph of a run (`not_found` for an unknown run). */
export async function runSessionGraph(database: Database, runId: string): Promise<SessionGraphView> {
  // The run (and its event seq) is read before the sessions, so nothing after `eventSeq` can be missing from them.
  const run = await requireRun(database, runId);
  const graph = await sessionGraph(database, runId);
  const sessions = topologicalOrder(graph.sessions.map(sessionView));
  const nodes = sessions.map((session) => ({ id: session.id, parentIds: session.lineage.parent_session_ids, ownUsage: session.ownUsage }));
  const cumulative = cumulativeUsages(nodes);
  return {
    run: runView(run),
    sessions: sessions.map((session) => ({ ...session, cumulativeUsage: cumulative.get(session.id) ?? null })),
    edges: graph.edges,
    totalUsage: totalUsage(nodes),
    eventSeq: run.lastEventSeq,
  };
}

/** Input of `sessionChunks`: chunks from index `fromIndex` (or after the `cursor` of the previous page). */
export const SessionChunksRequest = z.object({
  sessionId: z.string().min(1),
  fromIndex: z.number().int().nonnegative().optional(),
  /** The `nextCursor` of the previous page (an index as a string); wins over `fromIndex`. */
  cursor: z.string().regex(/^\d+$/, "a cursor is the nextCursor of a previous page").optional(),
  /** Chunks up to this index (exclusive); default: to the end. */
  toIndex: z.number().int().nonnegative().optional(),
  limit: z.number().int().min(1).max(1000).default(100),
});
export type SessionChunksRequest = z.input<typeof SessionChunksRequest>;

/** A page of a session's chunks in index order; `nextCursor` is null after the last one. */
export async function sessionChunks(
  database: Database,
  request: SessionChunksRequest,
): Promise<{ session: SessionView; chunks: ChunkView[]; nextCursor: string | null }> {
  const parsed = SessionChunksRequest.parse(request);
  const session = await getSession(database, parsed.sessionId);
  if (session === null) throw new RathError("not_found", `session ${parsed.sessionId} not found`);
  const from = parsed.cursor === undefined ? (parsed.fromIndex ?? 0) : Number(parsed.cursor);
  const end = Math.min(parsed.toIndex ?? session.chunkCount, session.chunkCount);
  if (from >= end) return { session: sessionView(session), chunks: [], nextCursor: null };
  const limit = Math.min(parsed.limit, end - from);
  const rows = await chunkPage(database, parsed.sessionId, { fromIndex: from, limit });
  const last = rows[rows.length - 1];
  const next = last === undefined ? null : last.index + 1;
  return { session: sessionView(session), chunks: rows.map(chunkView), nextCursor: next !== null && next < end ? String(next) : null };
}
