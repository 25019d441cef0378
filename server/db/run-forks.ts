/**
 * Cross-run lineage: the runs forked from a run's sessions ("Fork from here" stores the forked session in the new
 * run with the original session as its parent, so session_parents holds the edge between the two runs).
 */
import type { Database } from "./database";
import { forProvider } from "./raw-sql";

/** One cross-run fork edge: the session of the new run and the session of the original it was forked from. */
export interface CrossRunFork {
  runId: string;
  sessionId: string;
  parentSessionId: string;
}

const FORKS_SQL = `SELECT s."run_id" AS "run_id", s."id" AS "session_id", p."parent_id" AS "parent_id"
  FROM "session_parents" p
  JOIN "sessions" o ON o."id" = p."parent_id"
  JOIN "sessions" s ON s."id" = p."session_id"
  WHERE o."run_id" = ? AND s."run_id" <> ? AND s."lineage_kind" = 'op_fork'
  ORDER BY s."run_id" ASC
  LIMIT 500`;

/** Sessions of other runs forked from sessions of `runId` (oldest fork run first, at most 500). */
export async function crossRunForks(database: Database, runId: string): Promise<CrossRunFork[]> {
  const rows = await database.client.$queryRawUnsafe<Array<{ run_id: string; session_id: string; parent_id: string }>>(forProvider(database.provider, FORKS_SQL), runId, runId);
  return rows.map((row) => ({ runId: row.run_id, sessionId: row.session_id, parentSessionId: row.parent_id }));
}
