/**
 * One write that changes a run and appends its events: a fenced or conditional `UPDATE "runs" ... RETURNING *` that
 * reserves the events' sequence numbers (`event_seq` after it is the last event's seq), then the events. On
 * PostgreSQL it is ONE statement (the update and the events as data-modifying CTEs: one round trip, one commit),
 * after which live readers are woken (run-event-notifier.ts); on SQLite one write transaction of prepared statements on the adapter's
 * connection (sqlite-write.ts). Used by the claim (run-claim.ts) and a worker's final transition (run-finish.ts).
 */
import { postgresPoolOf, type Database } from "./database";
import { forProvider, insertRowsNow, postgresError, type SqlValue, type SyncStatements } from "./raw-sql";
import { noteAppendedEvents } from "./run-event-signal";
import { writeThenWakeUp } from "./run-event-notifier";
import { toRunRecordFromRaw, type RawRunRow, type RunRecord } from "./run-record";
import { sqliteWriteTransaction } from "./sqlite-write";

/**
 * An event appended by `updateRunWithEvents`. `payload` is its JSON text; with `endsWithFencingToken` it is the
 * text up to the run's fencing token as the update set it, and the event stores `${payload}${token}}`.
 */
export interface RunUpdateEvent {
  type: string;
  payload: string;
  endsWithFencingToken?: boolean;
}

/** The columns of a `run_events` row, in the order the hot paths insert them. */
export const RUN_EVENT_COLUMNS = ["run_id", "seq", "type", "payload", "at"] as const;

/** Inserts events whose last seq is `lastSeq` (the run's `event_seq` after reserving them) and notes them for live readers. */
export function insertRunEventsNow(statements: SyncStatements, runId: string, lastSeq: number, types: readonly string[], payloads: readonly string[], at: Date): void {
  const first = lastSeq - types.length + 1;
  insertRowsNow(
    statements,
    "run_events",
    RUN_EVENT_COLUMNS,
    types.map((type, offset) => [runId, first + offset, type, payloads[offset] as string, at]),
  );
  noteAppendedEvents(runId, lastSeq);
}

/**
 * Runs `update` (an `UPDATE "runs" ... RETURNING *` written with `?` placeholders for `values`, which must add
 * `events.length` to `event_seq`) and, when it changed a row, appends `events` at `now` in the same transaction.
 * Returns the run after the update, or null when the update matched nothing (nothing is written then).
 */
export async function updateRunWithEvents(
  database: Database,
  update: string,
  values: readonly SqlValue[],
  events: readonly RunUpdateEvent[],
  now: Date,
): Promise<RunRecord | null> {
  const types = events.map((event) => event.type);
  const pool = postgresPoolOf(database);
  if (pool === null) {
    return sqliteWriteTransaction(database, (statements) => {
      const row = statements.query<RawRunRow>(update, ...values)[0];
      if (row === undefined) return null;
      const token = Number(row.fencing_token);
      const payloads = events.map((event) => (event.endsWithFencingToken === true ? `${event.payload}${token}}` : event.payload));
      insertRunEventsNow(statements, row.id, Number(row.event_seq), types, payloads, now);
      return toRunRecordFromRaw(row);
    });
  }
  const statement = forProvider(
    "postgresql",
    `WITH updated AS (${update}
    ), new_events AS (
      INSERT INTO "run_events" ("run_id", "seq", "type", "payload", "at")
      SELECT updated."id", updated."event_seq" - ?::int + e.ordinality::int, e.type,
        CASE WHEN e.with_token THEN e.payload || updated."fencing_token" || '}' ELSE e.payload END, ?::timestamptz
      FROM updated, unnest(?::text[], ?::text[], ?::boolean[]) WITH ORDINALITY AS e(type, payload, with_token, ordinality)
    )
    SELECT updated.* FROM updated`,
  );
  const eventValues = [events.length, now, types, events.map((event) => event.payload), events.map((event) => event.endsWithFencingToken === true)];
  // As the step commit: live readers are woken after it, on its connection when a wake-up is due.
  let row: RawRunRow | undefined;
  try {
    row = await writeThenWakeUp(pool, async (client) => {
      const updated = (await client.query<RawRunRow>(statement, [...values, ...eventValues])).rows[0];
      return { result: updated, wakeUp: updated === undefined ? null : { runId: updated.id, lastSeq: Number(updated.event_seq) } };
    });
  } catch (error) {
    throw postgresError(error);
  }
  return row === undefined ? null : toRunRecordFromRaw(row);
}
