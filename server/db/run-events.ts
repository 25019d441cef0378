/**
 * The per-run event log. Sequence numbers are contiguous from 1: appending increments `runs.event_seq` in the
 * same transaction (which also locks the run row on PostgreSQL), then inserts the events with the numbers it
 * reserved. Every store operation that changes a run appends its events through `appendRunEvents`.
 */
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import type { Database } from "./database";
import { fromJsonText, toJsonText } from "./json-text";
import { inList, insertRows, rowReader, utcTimestamp, type RawStatements } from "./raw-sql";
import { noteAppendedEvents } from "./run-event-signal";

/** Event types the store itself appends (SPEC §6); the engine appends others (e.g. session and chunk events). */
export const STORE_EVENT_TYPES = [
  "run.created",
  "run.state.changed",
  "run.claimed",
  "run.checkpoint.created",
  "run.interrupt.created",
  "run.interrupt.decided",
  "run.lease.expired",
] as const;

/** An event to append: a `noun.verb` type and a JSON payload. */
export const RunEventInput = z.object({
  type: z.string().min(1),
  payload: z.record(z.string(), z.unknown()).default({}),
});
export type RunEventInput = z.input<typeof RunEventInput>;

/** One stored event of a run. */
export interface RunEventRecord {
  runId: string;
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  at: Date;
}

const Payload = z.record(z.string(), z.unknown());

/**
 * Appends events to a run inside an open transaction; returns them with their sequence numbers. The sequence
 * numbers are reserved by incrementing `runs.event_seq` (which also locks the run row on PostgreSQL).
 */
export async function appendRunEvents(
  statements: RawStatements,
  runId: string,
  events: readonly RunEventInput[],
  at: Date = new Date(),
): Promise<RunEventRecord[]> {
  if (events.length === 0) return [];
  const parsed = events.map((event) => RunEventInput.parse(event));
  const payloads = parsed.map((event) => toJsonText(event.payload, `payload of event ${event.type}`));
  const rows = await statements.query<{ event_seq: number | bigint }>(
    `UPDATE "runs" SET "event_seq" = "event_seq" + ?, "updated_at" = ? WHERE "id" = ? RETURNING "event_seq"`,
    parsed.length,
    at,
    runId,
  );
  const last = rows[0];
  if (last === undefined) throw new RathError("not_found", `run ${runId} not found`);
  const first = Number(last.event_seq) - parsed.length + 1;
  noteAppendedEvents(runId, Number(last.event_seq));
  const records = parsed.map((event, offset) => ({ runId, seq: first + offset, type: event.type, payload: event.payload, at }));
  await insertRows(
    statements,
    "run_events",
    ["run_id", "seq", "type", "payload", "at"],
    records.map((record, offset) => [runId, record.seq, record.type, payloads[offset] as string, at]),
  );
  return records;
}

/** Options of `eventsPage`. */
export interface EventsPageOptions {
  /** Return events with `seq > afterSeq` (default 0: from the first event). */
  afterSeq?: number;
  /** At most this many events (default 200, at most 1000). */
  limit?: number;
  /** Only events of these types. */
  types?: readonly string[];
}

/** One page of a run's events in sequence order, for streaming to the UI and for resuming a stream. */
export async function eventsPage(database: Database, runId: string, options: EventsPageOptions = {}): Promise<RunEventRecord[]> {
  const afterSeq = options.afterSeq ?? 0;
  const limit = options.limit ?? 200;
  if (!Number.isInteger(afterSeq) || afterSeq < 0) {
    throw new RathError("invalid_argument", `afterSeq must be a non-negative integer; found ${afterSeq}`);
  }
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new RathError("invalid_argument", `limit must be an integer from 1 to 1000; found ${limit}`);
  }
  // One prepared statement (rowReader), not Prisma: a live stream reads a page after every step commit.
  const types = options.types === undefined ? null : [...options.types];
  if (types !== null && types.length === 0) return [];
  const rows = await rowReader(database)<{ run_id: string; seq: number | bigint; type: string; payload: string; at: string | Date }>(
    `SELECT "run_id", "seq", "type", "payload", CAST("at" AS TEXT) AS "at" FROM "run_events"
      WHERE "run_id" = ? AND "seq" > ?${types === null ? "" : ` AND "type" IN (${inList(types.length)})`} ORDER BY "seq" LIMIT ?`,
    runId,
    afterSeq,
    ...(types ?? []),
    limit,
  );
  return rows.map((row) => ({
    runId: row.run_id,
    seq: Number(row.seq),
    type: row.type,
    payload: fromJsonText(row.payload, Payload, `payload of event ${row.run_id}#${row.seq}`),
    at: utcTimestamp(row.at),
  }));
}

/** Where a run's event log stands: its status and its last event seq (null when there is no such run). */
export interface RunEventPosition {
  status: string;
  lastEventSeq: number;
}

/**
 * The run's status and last event seq in one prepared statement (not Prisma): a live stream reads it after every
 * page it delivers, to know whether the run is drained.
 */
export async function runEventPosition(database: Database, runId: string): Promise<RunEventPosition | null> {
  const rows = await rowReader(database)<{ status: string; event_seq: number | bigint }>(`SELECT "status", "event_seq" FROM "runs" WHERE "id" = ?`, runId);
  const row = rows[0];
  return row === undefined ? null : { status: row.status, lastEventSeq: Number(row.event_seq) };
}
