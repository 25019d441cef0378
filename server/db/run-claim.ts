/**
 * The claim of a queued run as one write: on PostgreSQL ONE statement (the claiming update, its two events and the
 * pg_notify as data-modifying CTEs, one round trip and one commit), on SQLite one write transaction of two prepared
 * statements on the adapter's connection. The update also reserves the events' sequence numbers and returns the
 * whole row, so neither a separate event_seq update nor a read of the run follows it. run-lease.ts holds the claim
 * conditions (`claimNext`, `claimRun`).
 */
import { postgresPoolOf, type Database } from "./database";
import { toJsonText } from "./json-text";
import { forProvider, insertRowsNow, postgresError, type SqlValue, type SyncStatements } from "./raw-sql";
import { noteAppendedEvents, RUN_EVENTS_CHANNEL } from "./run-event-signal";
import { toRunRecordFromRaw, type RawRunRow, type RunRecord } from "./run-record";
import { sqliteWriteTransaction } from "./sqlite-write";

/** The columns a claim sets (its first four placeholders: worker id, lease end, now, now), events reserved included. */
export const CLAIM_SET = `SET "status" = 'running', "lease_owner" = ?, "fencing_token" = "fencing_token" + 1, "version" = "version" + 1,
      "lease_expires_at" = ?, "started_at" = COALESCE("started_at", ?), "updated_at" = ?, "event_seq" = "event_seq" + 2`;

/** Inserts events whose last seq is `lastSeq` (the run's `event_seq` after reserving them) and notes them for live readers. */
export function insertRunEventsNow(statements: SyncStatements, runId: string, lastSeq: number, types: readonly string[], payloads: readonly string[], at: Date): void {
  const first = lastSeq - types.length + 1;
  insertRowsNow(
    statements,
    "run_events",
    ["run_id", "seq", "type", "payload", "at"],
    types.map((type, offset) => [runId, first + offset, type, payloads[offset] as string, at]),
  );
  noteAppendedEvents(runId, lastSeq);
}

/**
 * `run.claimed`'s payload up to its fencing token: the token is the database's (the claim increments it), so the
 * text is completed where the token is known. Redaction happens here, on the whole text with a stand-in token.
 */
function claimedPayloadPrefix(workerId: string): string {
  const text = toJsonText({ worker_id: workerId, fencing_token: 0 }, "payload of event run.claimed");
  return text.slice(0, -2);
}

/**
 * Runs `update` (a claiming `UPDATE "runs" <CLAIM_SET> WHERE ... RETURNING *` whose placeholders are the four of
 * CLAIM_SET, then `extra`) and, when it took a run, appends `run.state.changed {queued -> running, claimed}` and
 * `run.claimed {worker_id, fencing_token}` in the same transaction. Returns the claimed run, or null.
 */
export async function claimWithStatement(
  database: Database,
  update: string,
  workerId: string,
  leaseMs: number,
  now: Date,
  extra: readonly SqlValue[],
): Promise<RunRecord | null> {
  const values: SqlValue[] = [workerId, new Date(now.getTime() + leaseMs), now, now, ...extra];
  const changed = toJsonText({ from: "queued", to: "running", reason: "claimed" }, "payload of event run.state.changed");
  const claimedPrefix = claimedPayloadPrefix(workerId);
  const pool = postgresPoolOf(database);
  if (pool === null) {
    return sqliteWriteTransaction(database, (statements) => {
      const row = statements.query<RawRunRow>(update, ...values)[0];
      if (row === undefined) return null;
      const claimed = `${claimedPrefix}${Number(row.fencing_token)}}`;
      insertRunEventsNow(statements, row.id, Number(row.event_seq), ["run.state.changed", "run.claimed"], [changed, claimed], now);
      return toRunRecordFromRaw(row);
    });
  }
  const statement = forProvider(
    "postgresql",
    `WITH claimed AS (${update}
    ), new_events AS (
      INSERT INTO "run_events" ("run_id", "seq", "type", "payload", "at")
      SELECT claimed."id", claimed."event_seq" - 1, 'run.state.changed', ?::text, ?::timestamptz FROM claimed
      UNION ALL
      SELECT claimed."id", claimed."event_seq", 'run.claimed', ?::text || claimed."fencing_token" || '}', ?::timestamptz FROM claimed
    ), notified AS (
      SELECT pg_notify(?::text, claimed."id" || ':' || claimed."event_seq") FROM claimed
    )
    SELECT claimed.*, (SELECT count(*) FROM notified) AS "notified" FROM claimed`,
  );
  try {
    const rows = (await pool.query<RawRunRow>(statement, [...values, changed, now, claimedPrefix, now, RUN_EVENTS_CHANNEL])).rows;
    const row = rows[0];
    return row === undefined ? null : toRunRecordFromRaw(row);
  } catch (error) {
    throw postgresError(error);
  }
}
