/**
 * Compares two stored sessions for the run view's "compare" panel: their nearest common ancestor in the lineage
 * graph, how many leading chunks they share (same kind and payload; timestamps and other metadata are ignored, so
 * a replayed step counts as shared), where they diverge, what each side spent after it (tokens, latency), and the
 * chunks after that point side by side, in pages. `outputSessionOf` picks the session that stands for a run (its
 * first output) so two runs of a workflow can be compared.
 */
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import type { Chunk } from "../../runtime/session/chunk";
import { ancestors } from "../../runtime/session/graph";
import type { Database } from "../db/database";
import type { SessionRecord } from "../db/session-record";
import { chunkPage, getSession } from "../db/session-store";
import { canonicalJson } from "../../runtime/workflow-spec/canonical-json";
import { sessionView, type SessionView } from "./views";

/** Input of `compareSessions`: the two sessions, and which page of differences (from `fromIndex`, default the divergence). */
export const CompareSessionsRequest = z.object({
  leftId: z.string().min(1),
  rightId: z.string().min(1),
  fromIndex: z.number().int().nonnegative().optional(),
  limit: z.number().int().min(1).max(500).default(50),
});
export type CompareSessionsRequest = z.input<typeof CompareSessionsRequest>;

/** One position after the divergence: the chunk of each side (null past that side's end) and whether they match. */
export interface ChunkDifference {
  index: number;
  left: Chunk | null;
  right: Chunk | null;
  same: boolean;
}

/** What one side spent after the divergence: tokens the models reported and the sum of their latencies. */
export interface TailStats {
  chunks: number;
  tokens: number;
  latencyMs: number;
}

/** The comparison of two sessions. */
export interface SessionComparison {
  left: SessionView;
  right: SessionView;
  /** The nearest session both descend from (either one itself when it is the other's ancestor), or null. */
  commonAncestorId: string | null;
  /** That session (it may belong to another run), or null. */
  commonAncestor: SessionView | null;
  /** Tokens and latency of each side's chunks after the divergence (the common prefix costs the same on both). */
  stats: { left: TailStats; right: TailStats };
  /** Leading chunks equal in kind and payload. */
  commonPrefix: number;
  /** The first index where they differ (or one ends), or null when their chunks are identical. */
  divergenceIndex: number | null;
  /** A page of positions from `fromIndex` (default: the divergence). */
  differences: ChunkDifference[];
  /** Where the next page of differences starts, or null after the last one. */
  nextIndex: number | null;
}

const PAGE = 500;
const MAX_ANCESTORS = 10_000;

async function requireSession(database: Database, id: string): Promise<SessionRecord> {
  const session = await getSession(database, id);
  if (session === null) throw new RathError("not_found", `session ${id} not found`);
  return session;
}

/** The lineage index of a session's ancestry, loaded from the store breadth-first (ancestors may be in other runs). */
async function lineageIndex(database: Database, start: SessionRecord): Promise<Map<string, SessionRecord>> {
  const index = new Map<string, SessionRecord>([[start.id, start]]);
  let frontier = [...start.lineage.parent_session_ids];
  while (frontier.length > 0 && index.size < MAX_ANCESTORS) {
    const next: string[] = [];
    for (const id of frontier) {
      if (index.has(id)) continue;
      const session = await getSession(database, id);
      if (session === null) continue;
      index.set(id, session);
      next.push(...session.lineage.parent_session_ids);
    }
    frontier = next;
  }
  return index;
}

function nearestCommonAncestor(left: SessionRecord, right: SessionRecord, leftIndex: Map<string, SessionRecord>, rightIndex: Map<string, SessionRecord>): string | null {
  const leftLine = [left.id, ...ancestors(left.id, leftIndex)];
  const rightLine = new Set([right.id, ...ancestors(right.id, rightIndex)]);
  return leftLine.find((id) => rightLine.has(id)) ?? null;
}

function sameChunk(left: Chunk | undefined, right: Chunk | undefined): boolean {
  if (left === undefined || right === undefined) return false;
  return left.kind === right.kind && canonicalJson(left.payload) === canonicalJson(right.payload);
}

async function chunksFrom(database: Database, sessionId: string, fromIndex: number, limit: number): Promise<Chunk[]> {
  if (limit <= 0) return [];
  return (await chunkPage(database, sessionId, { fromIndex, limit })).map((row) => row.chunk);
}

async function commonPrefixLength(database: Database, left: SessionRecord, right: SessionRecord): Promise<number> {
  const end = Math.min(left.chunkCount, right.chunkCount);
  let index = 0;
  while (index < end) {
    const size = Math.min(PAGE, end - index);
    const [leftPage, rightPage] = await Promise.all([chunksFrom(database, left.id, index, size), chunksFrom(database, right.id, index, size)]);
    for (let offset = 0; offset < size; offset += 1) {
      if (!sameChunk(leftPage[offset], rightPage[offset])) return index + offset;
    }
    index += size;
  }
  return end;
}

/** Sums usage and latency of a session's chunks from `fromIndex` on, page by page. */
async function tailStats(database: Database, session: SessionRecord, fromIndex: number): Promise<TailStats> {
  const stats: TailStats = { chunks: Math.max(0, session.chunkCount - fromIndex), tokens: 0, latencyMs: 0 };
  for (let index = fromIndex; index < session.chunkCount; index += PAGE) {
    for (const chunk of await chunksFrom(database, session.id, index, Math.min(PAGE, session.chunkCount - index))) {
      stats.tokens += chunk.meta.usage?.total_tokens ?? 0;
      stats.latencyMs += chunk.meta.latency_ms ?? 0;
    }
  }
  return stats;
}

/** Compares two sessions (`not_found` when either is unknown). */
export async function compareSessions(database: Database, request: CompareSessionsRequest): Promise<SessionComparison> {
  const parsed = CompareSessionsRequest.parse(request);
  const [left, right] = await Promise.all([requireSession(database, parsed.leftId), requireSession(database, parsed.rightId)]);
  const [leftIndex, rightIndex] = await Promise.all([lineageIndex(database, left), lineageIndex(database, right)]);
  const commonPrefix = await commonPrefixLength(database, left, right);
  const identical = commonPrefix === left.chunkCount && commonPrefix === right.chunkCount;
  const longest = Math.max(left.chunkCount, right.chunkCount);
  const from = parsed.fromIndex ?? commonPrefix;
  const count = Math.max(0, Math.min(parsed.limit, longest - from));
  const [leftChunks, rightChunks] = await Promise.all([
    chunksFrom(database, left.id, from, Math.min(count, left.chunkCount - from)),
    chunksFrom(database, right.id, from, Math.min(count, right.chunkCount - from)),
  ]);
  const differences: ChunkDifference[] = Array.from({ length: count }, (_, offset) => {
    const leftChunk = leftChunks[offset];
    const rightChunk = rightChunks[offset];
    return { index: from + offset, left: leftChunk ?? null, right: rightChunk ?? null, same: sameChunk(leftChunk, rightChunk) };
  });
  const commonAncestorId = nearestCommonAncestor(left, right, leftIndex, rightIndex);
  const ancestor = commonAncestorId === null ? null : (leftIndex.get(commonAncestorId) ?? rightIndex.get(commonAncestorId) ?? null);
  const [leftStats, rightStats] = await Promise.all([tailStats(database, left, commonPrefix), tailStats(database, right, commonPrefix)]);
  return {
    left: sessionView(left),
    right: sessionView(right),
    commonAncestorId,
    commonAncestor: ancestor === null ? null : sessionView(ancestor),
    stats: { left: leftStats, right: rightStats },
    commonPrefix,
    divergenceIndex: identical ? null : commonPrefix,
    differences,
    nextIndex: from + count < longest ? from + count : null,
  };
}

/** The session a run stands for when two runs are compared: its first output's session, else its newest session. */
export async function outputSessionOf(database: Database, runId: string): Promise<string> {
  const run = await database.client.run.findUnique({ where: { id: runId }, select: { output: true } });
  if (run === null) throw new RathError("not_found", `run ${runId} not found`);
  const parsed = z.object({ outputs: z.array(z.object({ sessionId: z.string() })).min(1) }).safeParse(run.output === null ? null : JSON.parse(run.output));
  if (parsed.success) return (parsed.data.outputs[0] as { sessionId: string }).sessionId;
  const newest = await database.client.session.findFirst({ where: { runId }, orderBy: [{ createdSeq: "desc" }, { createdAt: "desc" }], select: { id: true } });
  if (newest === null) throw new RathError("invalid_argument", `run ${runId} has no sessions to compare yet`);
  return newest.id;
}
