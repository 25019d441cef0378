/**
 * Rebuilds sessions a checkpoint refers to from their metadata and their stored chunks (resume after a crash,
 * a lease expiry or an approval). The rebuilt sessions are unbound: their sandbox is bound again when needed.
 */
import { RathError } from "../../runtime/errors";
import { Chunk, ChunkMeta } from "../../runtime/session/chunk";
import { Session } from "../../runtime/session/session";
import type { Database } from "../db/database";
import type { SessionMeta } from "./execution-state";

/** Loads one session: its first `meta.chunkCount` chunks from the database; `internal` when some are missing. */
export async function loadSession(database: Database, meta: SessionMeta): Promise<Session> {
  const rows = await database.client.chunk.findMany({
    where: { sessionId: meta.id, index: { lt: meta.chunkCount } },
    orderBy: { index: "asc" },
  });
  if (rows.length !== meta.chunkCount) {
    throw new RathError("internal", `session ${meta.id}: expected ${meta.chunkCount} stored chunks, found ${rows.length}`);
  }
  const chunks = rows.map((row) => {
    const parsed = Chunk.safeParse({ kind: row.kind, payload: JSON.parse(row.payload), meta: ChunkMeta.parse(JSON.parse(row.meta)) });
    if (!parsed.success) throw new RathError("internal", `stored chunk ${row.sessionId}#${row.index} is not a valid chunk: ${parsed.error.message}`);
    return parsed.data;
  });
  const { chunkCount: _count, ...snapshot } = meta;
  return Session.fromSnapshot({ ...snapshot, chunks, sandbox_handle_id: null });
}

/** How many chunks each of the given sessions has stored (sessions not stored are absent from the map). */
export async function storedChunkCounts(database: Database, sessionIds: readonly string[]): Promise<Map<string, number>> {
  if (sessionIds.length === 0) return new Map();
  const stored = await database.client.session.findMany({ where: { id: { in: [...sessionIds] } }, select: { id: true } });
  const counts = new Map<string, number>();
  for (const { id } of stored) counts.set(id, await database.client.chunk.count({ where: { sessionId: id } }));
  return counts;
}
