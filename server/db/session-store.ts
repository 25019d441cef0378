/**
 * Read side of the session graph: the sessions and lineage edges of a run, one session, and pages of a
 * session's chunks by index (never the whole session in one payload).
 */
import { RathError } from "../../runtime/errors";
import type { Database } from "./database";
import { readSessionChunks } from "./session-chunks";
import { toSessionRecord, type ChunkRecord, type SessionRecord } from "./session-record";

/** A lineage edge: `parentId` is parent number `position` of `childId`. */
export interface SessionEdge {
  parentId: string;
  childId: string;
  position: number;
}

/**
 * The session graph of a run: its sessions in creation order (the seq of their `session.created` event, then
 * creation time, then id) and every parent edge into them. Callers that need parents first sort topologically.
 */
export interface SessionGraph {
  sessions: SessionRecord[];
  edges: SessionEdge[];
}

/** Returns the sessions a run produced and their lineage edges (parents may belong to an earlier run). */
export async function sessionGraph(database: Database, runId: string): Promise<SessionGraph> {
  const [sessions, edges] = await Promise.all([
    database.client.session.findMany({ where: { runId }, orderBy: [{ createdSeq: "asc" }, { createdAt: "asc" }, { id: "asc" }] }),
    database.client.sessionParent.findMany({
      where: { session: { runId } },
      orderBy: [{ sessionId: "asc" }, { position: "asc" }],
    }),
  ]);
  return {
    sessions: sessions.map(toSessionRecord),
    edges: edges.map((edge) => ({ parentId: edge.parentId, childId: edge.sessionId, position: edge.position })),
  };
}

/** One session, or null. */
export async function getSession(database: Database, sessionId: string): Promise<SessionRecord | null> {
  const row = await database.client.session.findUnique({ where: { id: sessionId } });
  return row === null ? null : toSessionRecord(row);
}

/** The sessions that name `sessionId` as a parent (forks, merges and derivations of it). */
export async function childSessions(database: Database, sessionId: string): Promise<SessionRecord[]> {
  const rows = await database.client.session.findMany({
    where: { parentEdges: { some: { parentId: sessionId } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(toSessionRecord);
}

/** Options of `chunkPage`. */
export interface ChunkPageOptions {
  /** First index of the page (default 0). */
  fromIndex?: number;
  /** At most this many chunks (default 100, at most 1000). */
  limit?: number;
}

/**
 * A page of a session's chunks in index order, starting at `fromIndex` (empty past the end, or for an unknown
 * session). Chunks the session shares with its base are read from the base (see session-chunks.ts).
 */
export async function chunkPage(database: Database, sessionId: string, options: ChunkPageOptions = {}): Promise<ChunkRecord[]> {
  const fromIndex = options.fromIndex ?? 0;
  const limit = options.limit ?? 100;
  if (!Number.isInteger(fromIndex) || fromIndex < 0) {
    throw new RathError("invalid_argument", `fromIndex must be a non-negative integer; found ${fromIndex}`);
  }
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new RathError("invalid_argument", `limit must be an integer from 1 to 1000; found ${limit}`);
  }
  return (await readSessionChunks(database, sessionId, { fromIndex, toIndex: fromIndex + limit })) ?? [];
}
