/**
 * Rebuilds sessions a checkpoint refers to from their metadata and their stored chunks (resume after a crash,
 * a lease expiry or an approval). The rebuilt sessions are unbound: their sandbox is bound again when needed.
 */
import { RathError } from "../../runtime/errors";
import { Session } from "../../runtime/session/session";
import type { Database } from "../db/database";
import { readSessionChunks } from "../db/session-chunks";
import type { SessionMeta } from "./execution-state";

/**
 * Loads one session: its first `meta.chunkCount` chunks from the database (through the bases it shares chunks
 * with); `internal` when some are missing or invalid.
 */
export async function loadSession(database: Database, meta: SessionMeta): Promise<Session> {
  let rows;
  try {
    rows = (await readSessionChunks(database, meta.id, { toIndex: meta.chunkCount })) ?? [];
  } catch (error) {
    if (error instanceof RathError) throw new RathError("internal", `stored chunks of session ${meta.id} cannot be read: ${error.message}`, { cause: error });
    throw error;
  }
  if (rows.length !== meta.chunkCount) {
    throw new RathError("internal", `session ${meta.id}: expected ${meta.chunkCount} stored chunks, found ${rows.length}`);
  }
  const chunks = rows.map((row) => row.chunk);
  const { chunkCount: _count, ...snapshot } = meta;
  return Session.fromSnapshot({ ...snapshot, chunks, sandbox_handle_id: null });
}

/** How many chunks each of the given sessions has stored (sessions not stored are absent from the map). */
export async function storedChunkCounts(database: Database, sessionIds: readonly string[]): Promise<Map<string, number>> {
  if (sessionIds.length === 0) return new Map();
  const stored = await database.client.session.findMany({ where: { id: { in: [...sessionIds] } }, select: { id: true, chunkCount: true } });
  return new Map(stored.map(({ id, chunkCount }) => [id, chunkCount]));
}
