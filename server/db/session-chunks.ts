/**
 * Reads a session's chunks through structural sharing. A stored session owns the rows of its chunks from
 * `base_chunk_count` on; the ones before are its base session's (which may have a base of its own). One
 * recursive query fetches the base chain (only as deep as the requested range needs), the range is split into
 * segments by owner, and the rows of every segment are read by (session, index range).
 */
import { RathError } from "../../runtime/errors";
import type { Database } from "./database";
import { forProvider } from "./raw-sql";
import { toChunkRecord, type ChunkRecord } from "./session-record";

/** One session of a base chain: its chunk count and its own base. */
export interface ChainLink {
  id: string;
  chunkCount: number;
  baseSessionId: string | null;
  baseChunkCount: number;
}

/** Indices [from, to) of the session that was read whose rows belong to session `owner`. */
export interface ChunkSegment {
  owner: string;
  from: number;
  to: number;
}

/** Deepest base chain followed (a guard: bases always point to earlier sessions, so chains have no cycles). */
const MAX_CHAIN_DEPTH = 100_000;

/** Segments per statement (each is one `(session_id = ? AND index >= ? AND index < ?)` term). */
const SEGMENTS_PER_STATEMENT = 50;

const CHAIN_SQL = `WITH RECURSIVE "chain" ("id", "chunk_count", "base_session_id", "base_chunk_count", "depth") AS (
    SELECT "id", "chunk_count", "base_session_id", "base_chunk_count", 0 FROM "sessions" WHERE "id" = ?
    UNION ALL
    SELECT "s"."id", "s"."chunk_count", "s"."base_session_id", "s"."base_chunk_count", "chain"."depth" + 1
      FROM "sessions" "s" JOIN "chain" ON "s"."id" = "chain"."base_session_id"
      WHERE "chain"."base_chunk_count" > ? AND "chain"."depth" < ${MAX_CHAIN_DEPTH}
  )
  SELECT "id", "chunk_count", "base_session_id", "base_chunk_count" FROM "chain" ORDER BY "depth"`;

interface ChainRow {
  id: string;
  chunk_count: number | bigint;
  base_session_id: string | null;
  base_chunk_count: number | bigint;
}

interface ChunkRow {
  session_id: string;
  index: number | bigint;
  kind: string;
  payload: string;
  meta: string;
}

/**
 * The session and the bases its chunks from `fromIndex` on come from, nearest first (empty when the session does
 * not exist). Bases that only hold chunks before `fromIndex` are not fetched.
 */
export async function baseChain(database: Database, sessionId: string, fromIndex = 0): Promise<ChainLink[]> {
  const rows = await database.client.$queryRawUnsafe<ChainRow[]>(forProvider(database.provider, CHAIN_SQL), sessionId, fromIndex);
  return rows.map((row) => ({
    id: row.id,
    chunkCount: Number(row.chunk_count),
    baseSessionId: row.base_session_id,
    baseChunkCount: Number(row.base_chunk_count),
  }));
}

/**
 * Splits [fromIndex, toIndex) of the chain's first session into segments by the session that owns the rows, in
 * index order. Throws `internal` when a base the range needs is missing from the chain.
 */
export function chunkSegments(chain: readonly ChainLink[], fromIndex: number, toIndex: number): ChunkSegment[] {
  const segments: ChunkSegment[] = [];
  let upper = toIndex;
  for (const link of chain) {
    if (upper <= fromIndex) break;
    const ownFrom = link.baseSessionId === null ? 0 : link.baseChunkCount;
    const from = Math.max(fromIndex, ownFrom);
    if (from < upper) segments.push({ owner: link.id, from, to: upper });
    upper = Math.min(upper, ownFrom);
  }
  if (upper > fromIndex) {
    const last = chain[chain.length - 1];
    throw new RathError("internal", `chunks ${fromIndex}..${upper - 1} of session ${chain[0]?.id ?? "?"} belong to base session ${last?.baseSessionId ?? "?"}, which is not stored`);
  }
  return segments.reverse();
}

/** Reads the rows of `segments` (in index order) as chunks of `sessionId`. */
async function readSegments(database: Database, sessionId: string, segments: readonly ChunkSegment[]): Promise<ChunkRecord[]> {
  const records: ChunkRecord[] = [];
  for (let start = 0; start < segments.length; start += SEGMENTS_PER_STATEMENT) {
    const batch = segments.slice(start, start + SEGMENTS_PER_STATEMENT);
    const where = batch.map(() => `("session_id" = ? AND "index" >= ? AND "index" < ?)`).join(" OR ");
    const rows = await database.client.$queryRawUnsafe<ChunkRow[]>(
      forProvider(database.provider, `SELECT "session_id", "index", "kind", "payload", "meta" FROM "chunks" WHERE ${where} ORDER BY "index"`),
      ...batch.flatMap((segment) => [segment.owner, segment.from, segment.to]),
    );
    for (const row of rows) {
      records.push(toChunkRecord({ sessionId: row.session_id, index: Number(row.index), kind: row.kind, payload: row.payload, meta: row.meta }, sessionId));
    }
  }
  return records;
}

/** Options of `readSessionChunks`. */
export interface ChunkRangeOptions {
  /** First index (default 0). */
  fromIndex?: number;
  /** End of the range, exclusive (default and at most: the session's chunk count). */
  toIndex?: number;
}

/**
 * The chunks of a session in [fromIndex, toIndex), in index order, resolved through its bases; `null` when the
 * session does not exist. Indices are the session's own (a shared chunk has the same index in base and session).
 */
export async function readSessionChunks(database: Database, sessionId: string, options: ChunkRangeOptions = {}): Promise<ChunkRecord[] | null> {
  const fromIndex = options.fromIndex ?? 0;
  const chain = await baseChain(database, sessionId, fromIndex);
  const session = chain[0];
  if (session === undefined) return null;
  const toIndex = Math.min(options.toIndex ?? session.chunkCount, session.chunkCount);
  if (toIndex <= fromIndex) return [];
  return readSegments(database, sessionId, chunkSegments(chain, fromIndex, toIndex));
}
