/**
 * The step commit on PostgreSQL as ONE statement, so a step costs one round trip: the fenced update of the run is
 * the first data-modifying CTE, and every insert (checkpoint, sessions, their parents, chunks, events), the update
 * of sessions appended to select FROM it — when the fence refuses (stale token, run not running, plan hash or
 * checkpoint seq wrong) it returns no row and nothing at all is written. The statement is its own transaction: a
 * failing insert (a chunk index stored twice) undoes the whole of it. Live readers are woken after it commits
 * (run-event-notifier.ts: a `pg_notify` inside it would serialise every worker's commit; a due wake-up goes out on
 * the commit's connection before it is released). Rows travel as arrays (`unnest`), so the text never changes and
 * each pooled connection prepares it once (a named statement).
 */
import type { Pool as PostgresPool } from "pg";
import { postgresError, type SqlValue } from "./raw-sql";
import { writeThenWakeUp } from "./run-event-notifier";

/** Everything one commit writes, serialised (see run-commit.ts for what each part means). */
export interface CommitStatementInput {
  runId: string;
  fencingToken: number;
  tokensUsed: number;
  /** Events appended, `run.checkpoint.created` included; their seqs follow the run's `event_seq`. */
  eventCount: number;
  now: Date;
  /** The checkpoint's seq and plan hash (fenced) and its row in `checkpoints` column order. */
  checkpoint: { seq: number; planHash: string; row: readonly SqlValue[] } | null;
  /**
   * New sessions: `values` in `sessions` column order (run id, created_at and created_seq are taken from the
   * statement); `createdFromEnd` is how many events after its `session.created` the commit's last event comes.
   */
  sessions: ReadonlyArray<{ values: readonly SqlValue[]; createdFromEnd: number }>;
  /** `session_parents` rows: session id, position, parent id. */
  parents: ReadonlyArray<readonly SqlValue[]>;
  /** `chunks` rows: session id, index, kind, payload, meta. */
  chunks: ReadonlyArray<readonly SqlValue[]>;
  /** Sessions stored earlier that grow: id, stored chunk count, new chunk count, usage, own usage. */
  appended: ReadonlyArray<readonly SqlValue[]>;
  /**
   * `run_events` rows in order: type, payload (JSON text), and the position (from 1) of the row's last event among
   * the commit's events (a packed row holds several, run-events.ts), which gives its seq.
   */
  events: ReadonlyArray<readonly SqlValue[]>;
}

const STATEMENT_NAME = "rath_commit_step_3";

const STATEMENT = `
WITH fenced AS (
  UPDATE "runs" SET "tokens_used" = "tokens_used" + $3::int, "event_seq" = "event_seq" + $4::int, "updated_at" = $5::timestamptz,
    "checkpoint_seq" = COALESCE($6::int, "checkpoint_seq")
  WHERE "id" = $1::text AND "fencing_token" = $2::int AND "status" = 'running'
    AND ($6::int IS NULL OR ("plan_hash" = $7::text AND "checkpoint_seq" = $6::int - 1))
  RETURNING "event_seq", "cancel_requested"
), new_checkpoint AS (
  INSERT INTO "checkpoints" ("run_id", "seq", "plan_hash", "state", "next_nodes", "pending_interrupts", "effect_watermark", "at")
  SELECT $1::text, $6::int, $7::text, $8::text, $9::text, $10::text, $11::int, $5::timestamptz FROM fenced WHERE $6::int IS NOT NULL
), new_sessions AS (
  INSERT INTO "sessions" ("id", "run_id", "node_id", "parents", "lineage_operator", "lineage_kind", "lineage_extras", "placement", "usage",
    "chunk_count", "base_session_id", "base_chunk_count", "status", "error", "created_at", "own_usage", "inherited_chunk_count", "created_seq")
  SELECT s.id, $1::text, s.node_id, s.parents, s.lineage_operator, s.lineage_kind, s.lineage_extras, s.placement, s.usage,
    s.chunk_count, s.base_session_id, s.base_chunk_count, s.status, s.error, $5::timestamptz, s.own_usage, s.inherited_chunk_count,
    fenced.event_seq - s.created_from_end
  FROM fenced, unnest($12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[], $20::int[],
    $21::text[], $22::int[], $23::text[], $24::text[], $25::text[], $26::int[], $27::int[])
    AS s(id, node_id, parents, lineage_operator, lineage_kind, lineage_extras, placement, usage, chunk_count, base_session_id,
      base_chunk_count, status, error, own_usage, inherited_chunk_count, created_from_end)
), new_parents AS (
  INSERT INTO "session_parents" ("session_id", "position", "parent_id")
  SELECT p.session_id, p.position, p.parent_id FROM fenced, unnest($28::text[], $29::int[], $30::text[]) AS p(session_id, position, parent_id)
), new_chunks AS (
  INSERT INTO "chunks" ("session_id", "index", "kind", "payload", "meta")
  SELECT c.session_id, c.index, c.kind, c.payload, c.meta
  FROM fenced, unnest($31::text[], $32::int[], $33::text[], $34::text[], $35::text[]) AS c(session_id, index, kind, payload, meta)
), grown_sessions AS (
  UPDATE "sessions" AS stored SET "chunk_count" = a.chunk_count, "usage" = a.usage, "own_usage" = a.own_usage
  FROM fenced, unnest($36::text[], $37::int[], $38::int[], $39::text[], $40::text[]) AS a(id, stored_count, chunk_count, usage, own_usage)
  WHERE stored."id" = a.id AND stored."chunk_count" = a.stored_count
), new_events AS (
  INSERT INTO "run_events" ("run_id", "seq", "type", "payload", "at")
  SELECT $1::text, fenced.event_seq - $4::int + e.last_position, e.type, e.payload, $5::timestamptz
  FROM fenced, unnest($41::text[], $42::text[], $43::int[]) AS e(type, payload, last_position)
)
SELECT fenced.event_seq, fenced.cancel_requested FROM fenced`;

/** The values of `rows` column by column (`unnest` takes one array per column). */
function columns(rows: ReadonlyArray<readonly SqlValue[]>, count: number): SqlValue[][] {
  const result: SqlValue[][] = Array.from({ length: count }, () => []);
  for (const row of rows) for (let column = 0; column < count; column += 1) (result[column] as SqlValue[]).push(row[column] ?? null);
  return result;
}

/** Positions, in `sessions` column order, of the columns the statement takes per session (see CommitStatementInput). */
const SESSION_VALUE_COLUMNS = [0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16] as const;

/**
 * Runs the commit statement on `pool` and, when it appended events, wakes live readers. Returns the run's event
 * seq after the commit and its cancel flag, or null when the fence refused (nothing was written). Constraint
 * failures are RathErrors (`postgresError`).
 */
export async function runCommitStatement(pool: PostgresPool, input: CommitStatementInput): Promise<{ eventSeq: number; cancelRequested: boolean } | null> {
  const checkpoint = input.checkpoint;
  const sessionRows = input.sessions.map(({ values, createdFromEnd }) => [...SESSION_VALUE_COLUMNS.map((position) => values[position] ?? null), createdFromEnd]);
  const values = [
    input.runId,
    input.fencingToken,
    input.tokensUsed,
    input.eventCount,
    input.now,
    checkpoint?.seq ?? null,
    checkpoint?.planHash ?? null,
    checkpoint?.row[3] ?? null,
    checkpoint?.row[4] ?? null,
    checkpoint?.row[5] ?? null,
    checkpoint?.row[6] ?? null,
    ...columns(sessionRows, SESSION_VALUE_COLUMNS.length + 1),
    ...columns(input.parents, 3),
    ...columns(input.chunks, 5),
    ...columns(input.appended, 5),
    ...columns(input.events, 3),
  ];
  try {
    return await writeThenWakeUp(pool, async (client) => {
      const row = (await client.query<{ event_seq: number; cancel_requested: boolean }>({ name: STATEMENT_NAME, text: STATEMENT, values })).rows[0];
      if (row === undefined) return { result: null, wakeUp: null };
      const eventSeq = Number(row.event_seq);
      return { result: { eventSeq, cancelRequested: row.cancel_requested }, wakeUp: input.eventCount > 0 ? { runId: input.runId, lastSeq: eventSeq } : null };
    });
  } catch (error) {
    throw postgresError(error);
  }
}
