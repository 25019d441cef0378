/**
 * A worker moving the run it holds out of `running` (succeeded, failed, waiting, ...), fenced by its token, in one
 * statement on PostgreSQL (one round trip: update, events and pg_notify as data-modifying CTEs) and one write
 * transaction of two prepared statements on SQLite — instead of a read, then `transition`'s interactive transaction.
 * The update matches only while the run is `running` with this fencing token; then its version is the one the
 * claim gave (every other change of a run's version also changes its status or token), so this is the same
 * optimistic check as `transition(run.version, ...)`. When nothing matches it writes nothing and returns null: the
 * caller reads the run to say why.
 */
import { postgresPoolOf, type Database } from "./database";
import { toJsonText } from "./json-text";
import { forProvider, postgresError, type SqlValue } from "./raw-sql";
import { RUN_EVENTS_CHANNEL } from "./run-event-signal";
import { RunFailure, toRunRecordFromRaw, type RawRunRow, type RunRecord } from "./run-record";
import { assertTransition, RunStatus } from "./run-status";
import { insertRunEventsNow } from "./run-claim";
import { statusChanges, type TransitionOptions } from "./run-store";
import { sqliteWriteTransaction } from "./sqlite-write";

/**
 * Moves the running run `runId` held with `fencingToken` to `to`, with the same columns and events as
 * `transition` (`run.state.changed {from: "running", to, reason}`, then `options.events`). Returns the run after
 * the change, or null when the run is no longer running with this token (nothing written).
 */
export async function finishHeldRun(
  database: Database,
  runId: string,
  fencingToken: number,
  to: RunStatus,
  options: Omit<TransitionOptions, "fencingToken"> = {},
): Promise<RunRecord | null> {
  const target = RunStatus.parse(to);
  assertTransition("running", target);
  const failure = options.error === undefined ? undefined : RunFailure.parse(options.error);
  const now = new Date();
  const changes = statusChanges({ status: "running", startedAt: now }, target, { ...options, error: failure }, now);
  const events = [{ type: "run.state.changed", payload: { from: "running", to: target, reason: options.reason ?? null } }, ...(options.events ?? [])];
  const types = events.map((event) => event.type);
  const payloads = events.map((event) => toJsonText(event.payload ?? {}, `payload of event ${event.type}`));
  const set = `"version" = "version" + 1, "event_seq" = "event_seq" + ?, ${changes.map(([column]) => `"${column}" = ?`).join(", ")}`;
  const values: SqlValue[] = [events.length, ...changes.map(([, value]) => value), runId, fencingToken];
  const update = `UPDATE "runs" SET ${set} WHERE "id" = ? AND "fencing_token" = ? AND "status" = 'running' RETURNING *`;
  const pool = postgresPoolOf(database);
  if (pool === null) {
    return sqliteWriteTransaction(database, (statements) => {
      const row = statements.query<RawRunRow>(update, ...values)[0];
      if (row === undefined) return null;
      insertRunEventsNow(statements, runId, Number(row.event_seq), types, payloads, now);
      return toRunRecordFromRaw(row);
    });
  }
  const statement = forProvider(
    "postgresql",
    `WITH finished AS (${update}
    ), new_events AS (
      INSERT INTO "run_events" ("run_id", "seq", "type", "payload", "at")
      SELECT finished."id", finished."event_seq" - ?::int + e.ordinality::int, e.type, e.payload, ?::timestamptz
      FROM finished, unnest(?::text[], ?::text[]) WITH ORDINALITY AS e(type, payload, ordinality)
    ), notified AS (
      SELECT pg_notify(?::text, finished."id" || ':' || finished."event_seq") FROM finished
    )
    SELECT finished.*, (SELECT count(*) FROM notified) AS "notified" FROM finished`,
  );
  let rows: RawRunRow[];
  try {
    rows = (await pool.query<RawRunRow>(statement, [...values, events.length, now, types, payloads, RUN_EVENTS_CHANNEL])).rows;
  } catch (error) {
    throw postgresError(error);
  }
  const row = rows[0];
  return row === undefined ? null : toRunRecordFromRaw(row);
}
