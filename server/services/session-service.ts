/**
 * The session graph of a run for the run view: its sessions (lineage, own usage, status, producing node, chunk
 * count), and pages of one session's chunks by index (never a whole long session at once).
 */
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import { topologicalOrder } from "../../runtime/session/graph";
import type { Usage } from "../../runtime/session/usage";
import { sumUsage } from "../../runtime/session/usage-rollup";
import type { Database } from "../db/database";
import { chunkPage, getSession, graphSessions, runToolErrors, runUsageByModel, type GraphSessionRecord, type ModelUsage, type SessionToolErrors } from "../db/session-store";
import { requireRun } from "./run-service";
import { chunkView, runView, sessionView, type ChunkView, type RunView, type SessionView } from "./views";

/**
 * A session as the run's graph draws it (no placement, storage details or edges: parents are in its lineage) with
 * its own tool errors. Cumulative and subtree usage are summed by the page from each session's own usage.
 */
export interface GraphSessionView extends GraphSessionRecord {
  /** Failed tool results among the chunks the session added itself (null when none). */
  toolErrors: SessionToolErrors | null;
}

/**
 * The graph of a run: the run, its sessions in topological order (parents first; otherwise by creation time, then
 * id), the run's total usage (the sum of own usage: each model call once), and the last event seq the graph
 * includes (a live view follows `runs.onEvents` from there).
 */
export interface SessionGraphView {
  run: RunView;
  sessions: GraphSessionView[];
  totalUsage: Usage | null;
  /** Every event up to this seq is reflected in the graph (events after it may be too: applying them is idempotent). */
  eventSeq: number;
}

/** Returns the session graph of a run (`not_found` for an unknown run). */
export async function runSessionGraph(database: Database, runId: string): Promise<SessionGraphView> {
  // The run (and its event seq) is read before the sessions, so nothing after `eventSeq` can be missing from them.
  const run = await requireRun(database, runId);
  const [records, toolErrors] = await Promise.all([graphSessions(database, runId), runToolErrors(database, runId)]);
  const sessions = topologicalOrder(records.map((record) => ({ ...record, toolErrors: toolErrors.get(record.id) ?? null })));
  return { run: runView(run), sessions, totalUsage: sumUsage(sessions.map((session) => session.ownUsage)), eventSeq: run.lastEventSeq };
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

/**
 * A stretch of a session's chunks as the run view lists them: chunks it took from a parent (`inherited`), the
 * leading chunks every parent of a merge shares (`shared`, listed once), a parent's repetition of those
 * (`repeated`: the same chunks as `sameAs`, not listed again), the chunks it added itself (`own`), and the point
 * where a merge's branches joined (`join`, empty).
 */
export interface ChunkSegmentView {
  kind: "shared" | "inherited" | "repeated" | "join" | "own";
  from: number;
  to: number;
  /** The parent the chunks came from (the first parent for `shared`), or null for `own` and `join`. */
  sourceSessionId: string | null;
  /** For `repeated`: the range of the same chunks listed earlier. */
  sameAs: { from: number; to: number } | null;
}

const PREFIX_PAGE = 500;

/** How many leading chunks two stored sessions have in common (same kind and payload), up to `limit`. */
async function commonPrefixLength(database: Database, leftId: string, rightId: string, limit: number): Promise<number> {
  let index = 0;
  while (index < limit) {
    const size = Math.min(PREFIX_PAGE, limit - index);
    const [left, right] = await Promise.all([
      chunkPage(database, leftId, { fromIndex: index, limit: size }),
      chunkPage(database, rightId, { fromIndex: index, limit: size }),
    ]);
    for (let offset = 0; offset < size; offset += 1) {
      const a = left[offset]?.chunk;
      const b = right[offset]?.chunk;
      if (a === undefined || b === undefined || a.kind !== b.kind || JSON.stringify(a.payload) !== JSON.stringify(b.payload)) return index + offset;
    }
    index += size;
  }
  return limit;
}

/**
 * The segments of a session's chunks, in index order and covering every index once: what it inherited (a merge:
 * the prefix its parents share once, each branch's own part, and the repeated prefix marked as such), then its own.
 */
export async function sessionSegments(database: Database, sessionId: string): Promise<{ session: SessionView; segments: ChunkSegmentView[] }> {
  const record = await getSession(database, sessionId);
  if (record === null) throw new RathError("not_found", `session ${sessionId} not found`);
  const session = sessionView(record);
  const inherited = Math.min(session.inheritedChunkCount, session.chunkCount);
  const own: ChunkSegmentView[] = inherited < session.chunkCount ? [{ kind: "own", from: inherited, to: session.chunkCount, sourceSessionId: null, sameAs: null }] : [];
  const parentIds = session.lineage.parent_session_ids;
  if (inherited === 0) return { session, segments: own };
  const [leftId, rightId] = parentIds;
  const left = leftId === undefined ? null : await getSession(database, leftId);
  const right = rightId === undefined ? null : await getSession(database, rightId);
  if (session.lineage.lineage_kind !== "op_merge" || parentIds.length !== 2 || left === null || right === null) {
    return { session, segments: [{ kind: "inherited", from: 0, to: inherited, sourceSessionId: leftId ?? null, sameAs: null }, ...own] };
  }
  // A merge took its left parent's chunks, then its right parent's (each as it was when they merged).
  const leftCount = Math.min(left.chunkCount, inherited);
  const rightCount = inherited - leftCount;
  const shared = await commonPrefixLength(database, left.id, right.id, Math.min(leftCount, rightCount));
  const segments: ChunkSegmentView[] = [];
  if (shared > 0) segments.push({ kind: "shared", from: 0, to: shared, sourceSessionId: left.id, sameAs: null });
  if (leftCount > shared) segments.push({ kind: "inherited", from: shared, to: leftCount, sourceSessionId: left.id, sameAs: null });
  segments.push({ kind: "join", from: leftCount, to: leftCount, sourceSessionId: null, sameAs: null });
  if (shared > 0) segments.push({ kind: "repeated", from: leftCount, to: leftCount + shared, sourceSessionId: right.id, sameAs: { from: 0, to: shared } });
  if (rightCount > shared) segments.push({ kind: "inherited", from: leftCount + shared, to: inherited, sourceSessionId: right.id, sameAs: null });
  return { session, segments: [...segments, ...own] };
}

/** Own usage of every session of a run, by model (for costs): `{ sessions: { [sessionId]: ModelUsage[] } }`. */
export async function runSessionUsageByModel(database: Database, runId: string): Promise<{ sessions: Record<string, ModelUsage[]> }> {
  await requireRun(database, runId);
  return { sessions: Object.fromEntries(await runUsageByModel(database, runId)) };
}
