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

/**
 * The runtime's event kinds (runtime/events.ts, streaming deltas aside) that a step commit stores PACKED: a run of two
 * or more of them in a row of one commit goes into ONE `run_events` row (`PACKED_ROW_TYPE`), so an agent step
 * writes 3 event rows instead of 9. No reader selects these kinds by type in SQL (fork replay, the timeline, the
 * producing-step lookup and the tests read `run.*` kinds, which always keep a row each); every reader of them goes
 * through `eventsPage`, which expands packed rows. Kinds not listed here (store events, engine `run.*` events,
 * custom events) are never packed.
 */
export const PACKED_EVENT_TYPES: ReadonlySet<string> = new Set([
  "session.created",
  "chunk.appended",
  "agent.started",
  "agent.ended",
  "model.request.started",
  "model.response.completed",
  "model.retry.scheduled",
  "tool.call.started",
  "tool.call.ended",
  "memory.recalled",
  "memory.committed",
  "memory.remembered",
  "route.decided",
  "session.compressed",
  "budget.exceeded",
  "workflow.step.started",
  "workflow.step.ended",
]);

/**
 * The `type` of a packed row: empty, which no event can have (RunEventInput needs at least one character). Its `seq`
 * is the seq of its LAST event, its events' seqs are the ones before it (contiguous), and its `payload` is the JSON
 * array `[[type, payload], ...]` of its events in order, each payload the text it would have had in a row of its own.
 * Keyed by the last seq, a read of `seq > afterSeq` finds every row holding an event after `afterSeq`.
 */
export const PACKED_ROW_TYPE = "";

/** One `run_events` row to insert for a commit's events: `lastOffset` is the offset (in the commit) of its last event. */
export interface RunEventRow {
  lastOffset: number;
  type: string;
  payload: string;
}

/**
 * The rows of a commit's events (types and their payload texts, in order): runs of two or more `PACKED_EVENT_TYPES`
 * in one packed row, every other event (and a lone packable one) in a row of its own, exactly as before.
 */
export function runEventRows(types: readonly string[], payloads: readonly string[]): RunEventRow[] {
  const rows: RunEventRow[] = [];
  let offset = 0;
  while (offset < types.length) {
    let end = offset;
    while (end < types.length && PACKED_EVENT_TYPES.has(types[end] as string)) end += 1;
    if (end - offset >= 2) {
      let text = "[";
      for (let index = offset; index < end; index += 1) text += `${index === offset ? "" : ","}[${JSON.stringify(types[index])},${payloads[index] as string}]`;
      rows.push({ lastOffset: end - 1, type: PACKED_ROW_TYPE, payload: `${text}]` });
      offset = end;
      continue;
    }
    rows.push({ lastOffset: offset, type: types[offset] as string, payload: payloads[offset] as string });
    offset += 1;
  }
  return rows;
}

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
  statements.noteAppendedEvents(runId, Number(last.event_seq));
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
  const types = options.types === undefined ? null : [...new Set(options.types)];
  if (types !== null && types.length === 0) return [];
  // Packed rows are read too when a wanted kind may be inside one; their events are filtered here.
  const wanted = types === null ? null : new Set(types);
  const sqlTypes = types === null ? null : types.some((type) => PACKED_EVENT_TYPES.has(type)) ? [...types, PACKED_ROW_TYPE] : types;
  const read = rowReader(database);
  const events: RunEventRecord[] = [];
  let after = afterSeq;
  for (;;) {
    const rows = await read<{ run_id: string; seq: number | bigint; type: string; payload: string; at: string | Date }>(
      `SELECT "run_id", "seq", "type", "payload", CAST("at" AS TEXT) AS "at" FROM "run_events"
        WHERE "run_id" = ? AND "seq" > ?${sqlTypes === null ? "" : ` AND "type" IN (${inList(sqlTypes.length)})`} ORDER BY "seq" LIMIT ?`,
      runId,
      after,
      ...(sqlTypes ?? []),
      limit,
    );
    for (const row of rows) {
      const seq = Number(row.seq);
      const at = utcTimestamp(row.at);
      if (row.type !== PACKED_ROW_TYPE) {
        events.push({ runId: row.run_id, seq, type: row.type, payload: fromJsonText(row.payload, Payload, `payload of event ${row.run_id}#${seq}`), at });
        continue;
      }
      const packed = fromJsonText(row.payload, PackedPayload, `packed events of ${row.run_id} up to #${seq}`);
      const first = seq - packed.length + 1;
      packed.forEach(([type, payload], offset) => {
        if (first + offset > afterSeq && (wanted === null || wanted.has(type))) events.push({ runId: row.run_id, seq: first + offset, type, payload, at });
      });
    }
    // Every row holds at least one event after `after`, so a short read is the end; a packed row may hold none of
    // the wanted kinds, so a full read that found too few goes on after it.
    if (events.length >= limit || rows.length < limit) return events.slice(0, limit);
    after = Number((rows[rows.length - 1] as { seq: number | bigint }).seq);
  }
}

/** The payload of a packed row: its events in order, as `[type, payload]`. */
const PackedPayload = z.array(z.tuple([z.string().min(1), Payload])).min(2);

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
