/**
 * The step commit: after every step the worker writes the sessions and chunks the step produced, its events
 * and the new checkpoint in ONE transaction, fenced by its lease token. A stale token, a checkpoint that does
 * not follow the last one, or a plan hash other than the run's is refused and nothing is written. It is the
 * engine's hot path, so it is raw SQL: on SQLite one fenced UPDATE and a read of the run row, then one multi-row
 * INSERT per table (raw-sql.ts); on PostgreSQL all of it in one statement (run-commit-postgres.ts). Stored sessions are
 * read only when the step appends to them or names bases this handle does not know (stored-session-lookup.ts).
 */
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import type { Checkpoint as CheckpointRow } from "./generated/sqlite/client";
import { addUsage, Usage } from "../../runtime/session/usage";
import type { Pool as PostgresPool } from "pg";
import { postgresPoolOf, type Database } from "./database";
import { AnyJson, fromJsonText, StringList, toJsonText } from "./json-text";
import { insertRowsNow, poolReader, rowReader, utcTimestamp, type SqlValue, type SyncStatements } from "./raw-sql";
import { RUN_EVENT_COLUMNS } from "./run-update";
import { runCommitStatement } from "./run-commit-postgres";
import { noteAppendedEvents } from "./run-event-signal";
import { RunEventInput, runEventRows, type RunEventRecord, type RunEventRow } from "./run-events";
import { LeaseLostError, staleTokenError } from "./lease-lost";
import { redactStoredText } from "./stored-secrets";
import { ChunkInput, SessionInput } from "./session-record";
import { parseChunkInputs, parseSessionInputs } from "./commit-input";
import { crossRunParentRows, crossRunParentRowsNow } from "./session-parent-rows";
import { sqliteWriteTransaction } from "./sqlite-write";
import { lookUpStoredSessions, lookUpStoredSessionsNow, rememberStoredSessions, withShallowestBases, type StoredSession, type StoredSessionFacts } from "./stored-session-lookup";

/** The checkpoint of a step: contiguous `seq` from 1, the plan hash, the engine's state and what runs next. */
export const CheckpointInput = z.object({
  seq: z.number().int().positive(),
  planHash: z.string().min(1),
  state: z.unknown(),
  nextNodes: z.array(z.string()),
  pendingInterrupts: z.array(z.string()).default([]),
  effectWatermark: z.number().int().nonnegative().default(0),
});
export type CheckpointInput = z.input<typeof CheckpointInput>;

/** A stored checkpoint. */
export interface CheckpointRecord {
  runId: string;
  seq: number;
  planHash: string;
  state: unknown;
  nextNodes: string[];
  pendingInterrupts: string[];
  effectWatermark: number;
  at: Date;
}

/** Everything one step writes. All parts are optional; an empty commit still checks the fencing token. */
export const StepCommit = z.object({
  sessions: z.array(SessionInput).default([]),
  chunks: z.array(ChunkInput).default([]),
  events: z.array(RunEventInput).default([]),
  checkpoint: CheckpointInput.optional(),
  /** Tokens the step used; added to the run's `tokensUsed`. */
  tokensUsed: z.number().int().nonnegative().default(0),
});
export type StepCommit = z.input<typeof StepCommit>;

/** What a commit wrote: the checkpoint (if any) and the events with their sequence numbers. */
export interface CommitResult {
  checkpoint: CheckpointRecord | null;
  events: RunEventRecord[];
  /** Whether someone asked to cancel the run, as of this commit (so the worker needs no separate read). */
  cancelRequested: boolean;
}

type ParsedCommit = z.infer<typeof StepCommit>;
type ParsedSession = z.infer<typeof SessionInput>;
type ParsedChunk = z.infer<typeof ChunkInput>;

/**
 * Commits one step of a running run held with `fencingToken`. Events are appended in the given order, then
 * `run.checkpoint.created {seq}` when there is a checkpoint. A session with a `base` stores only its chunks from
 * `base.chunkCount` on (a base that shares the same prefix through its own base is followed, so fork chains stay
 * one level deep). Chunks for sessions stored by earlier steps of the run grow their chunk count, usage and own usage.
 * Refuses with `conflict` (stale token, run not running, checkpoint seq not last+1, plan hash mismatch, a chunk
 * index already stored) or `invalid_argument` (a chunk of another run's session, a chunk outside its session's
 * own range, a base that is not stored or shorter than what it shares).
 *
 * SQLite: one transaction of prepared statements on the adapter's connection. PostgreSQL: one statement
 * (`run-commit-postgres.ts`), so one round trip, preceded by a read only when the commit appends to stored sessions
 * or names bases this handle has not seen (`stored-session-lookup.ts`).
 */
export async function commitStep(database: Database, runId: string, fencingToken: number, commit: StepCommit): Promise<CommitResult> {
  const { step, events, rows, now, written } = await writeStep(database, runId, fencingToken, commit);
  const first = written.eventSeq - events.length + 1;
  const checkpoint: CheckpointRecord | null =
    step.checkpoint === undefined || rows.checkpoint === null ? null : storedCheckpoint(runId, step.checkpoint, rows.checkpoint[3] as string, now);
  return {
    checkpoint,
    events: events.map((event, offset) => ({ runId, seq: first + offset, type: event.type, payload: event.payload, at: now })),
    cancelRequested: written.cancelRequested,
  };
}

/**
 * `commitStep` for a caller that needs only whether a cancel was requested (the run executor, after every step):
 * the same write, refusals and errors, without building the checkpoint and event records `commitStep` returns.
 */
export async function commitStepForCancelFlag(database: Database, runId: string, fencingToken: number, commit: StepCommit): Promise<Pick<CommitResult, "cancelRequested">> {
  const { written } = await writeStep(database, runId, fencingToken, commit);
  return { cancelRequested: written.cancelRequested };
}

/** What `writeStep` wrote, for the callers' results. */
interface WrittenStep {
  step: ParsedCommit;
  events: ReadonlyArray<{ type: string; payload: Record<string, unknown> }>;
  rows: CommitRows;
  now: Date;
  written: Written;
}

/** The write of `commitStep` (see there), with what its result is made of. */
async function writeStep(database: Database, runId: string, fencingToken: number, commit: StepCommit): Promise<WrittenStep> {
  const step = parseStepCommit(commit);
  validateCommitShape(runId, step);
  const now = new Date();
  const events: ReadonlyArray<{ type: string; payload: Record<string, unknown> }> = [
    ...step.events,
    ...(step.checkpoint === undefined ? [] : [{ type: "run.checkpoint.created", payload: { seq: step.checkpoint.seq } }]),
  ];
  // Serialised before the transaction starts: SQLite holds its one connection for the whole transaction.
  const rows: CommitRows = {
    checkpoint: step.checkpoint === undefined ? null : checkpointValues(runId, step.checkpoint, now),
    chunks: step.chunks.map(chunkValues),
    eventPayloads: events.map((event) => toJsonText(event.payload, `payload of event ${event.type}`)),
  };
  const pool = postgresPoolOf(database);
  const written =
    pool === null
      ? await commitOnSqlite(database, runId, fencingToken, step, events, rows, now)
      : await commitOnPostgres(database, pool, runId, fencingToken, step, events, rows, now);
  rememberStoredSessions(database.client, written.stored);
  return { step, events, rows, now, written };
}

/**
 * The checkpoint as stored; its `state` is the stored (redacted) JSON read back, parsed when first read: the
 * engine only needs the commit to succeed, so its hot path never pays for the parse.
 */
function storedCheckpoint(runId: string, checkpoint: NonNullable<ParsedCommit["checkpoint"]>, stateText: string, at: Date): CheckpointRecord {
  let state: { value: unknown } | null = null;
  // A getter in the literal: the same own, enumerable accessor in the same place as a defineProperty after it, made
  // without a runtime call per step.
  return {
    runId,
    seq: checkpoint.seq,
    planHash: checkpoint.planHash,
    get state(): unknown {
      return (state ??= { value: JSON.parse(stateText) as unknown }).value;
    },
    nextNodes: checkpoint.nextNodes,
    pendingInterrupts: checkpoint.pendingInterrupts,
    effectWatermark: checkpoint.effectWatermark,
    at,
  };
}

/**
 * `StepCommit.parse`, without a schema walk of what is plain already: events whose type is a non-empty string and
 * whose payload is a plain object (the record schema returns the same keys and values), and a well-formed
 * checkpoint, are taken as they are (defaults filled). Sessions and chunks in their schemas' form are rebuilt in
 * the schemas' key order (commit-input.ts), others go through the schemas. Anything else is parsed, so errors read
 * as before.
 */
function parseStepCommit(commit: StepCommit): ParsedCommit {
  const events = commit.events ?? [];
  const checkpoint = commit.checkpoint;
  const tokensUsed = commit.tokensUsed ?? 0;
  if (!events.every(isPlainEvent) || (checkpoint !== undefined && !isPlainCheckpoint(checkpoint)) || !isCount(tokensUsed)) return StepCommit.parse(commit);
  return {
    sessions: commit.sessions === undefined ? [] : parseSessionInputs(commit.sessions),
    chunks: commit.chunks === undefined ? [] : parseChunkInputs(commit.chunks),
    events: events.map((event) => ({ type: event.type, payload: event.payload ?? {} })),
    ...(checkpoint === undefined
      ? {}
      : {
          checkpoint: {
            seq: checkpoint.seq,
            planHash: checkpoint.planHash,
            state: checkpoint.state,
            nextNodes: checkpoint.nextNodes,
            pendingInterrupts: checkpoint.pendingInterrupts ?? [],
            effectWatermark: checkpoint.effectWatermark ?? 0,
          },
        }),
    tokensUsed,
  };
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isPlainEvent(event: RunEventInput): boolean {
  return typeof event === "object" && event !== null && typeof event.type === "string" && event.type.length > 0 && (event.payload === undefined || isPlainObject(event.payload));
}

function isPlainCheckpoint(checkpoint: CheckpointInput): boolean {
  return (
    isPlainObject(checkpoint) &&
    isCount(checkpoint.seq) &&
    checkpoint.seq > 0 &&
    typeof checkpoint.planHash === "string" &&
    checkpoint.planHash.length > 0 &&
    isStringArray(checkpoint.nextNodes) &&
    (checkpoint.pendingInterrupts === undefined || isStringArray(checkpoint.pendingInterrupts)) &&
    (checkpoint.effectWatermark === undefined || isCount(checkpoint.effectWatermark))
  );
}

/** The serialised parts of a commit that do not depend on what is stored. */
interface CommitRows {
  checkpoint: SqlValue[] | null;
  chunks: SqlValue[][];
  eventPayloads: string[];
}

/** What a commit wrote: the run's event seq after it, the cancel flag, and the sessions it stored or read. */
interface Written extends FencedRun {
  stored: Map<string, StoredSessionFacts>;
}

/**
 * The facts of the sessions a commit stored (new ones with their base, appended ones with their new count) and
 * read, for `rememberStoredSessions`.
 */
function storedAfterCommit(runId: string, sessions: readonly ParsedSession[], appended: readonly AppendedSession[], read: ReadonlyMap<string, StoredSession>): Map<string, StoredSessionFacts> {
  const facts = new Map<string, StoredSessionFacts>(read);
  for (const session of sessions) {
    facts.set(session.id, { runId, chunkCount: session.chunkCount, baseSessionId: session.base?.sessionId ?? null, baseChunkCount: session.base?.chunkCount ?? 0 });
  }
  for (const update of appended) {
    const known = read.get(update.id) as StoredSession;
    facts.set(update.id, { ...known, chunkCount: update.chunkCount });
  }
  return facts;
}

/** The chunk session ids of a commit (the lookup reads those not created by the commit). */
function chunkSessionIds(step: ParsedCommit): Set<string> {
  return new Set(step.chunks.map((chunk) => chunk.sessionId));
}

/**
 * The commit as one SQLite write transaction run in one go on the adapter's connection (sqlite-write.ts): the fenced
 * update first (it refuses a stale token before anything else), then the lookups and one multi-row INSERT per table.
 */
async function commitOnSqlite(
  database: Database,
  runId: string,
  fencingToken: number,
  step: ParsedCommit,
  events: ReadonlyArray<{ type: string; payload: Record<string, unknown> }>,
  rows: CommitRows,
  now: Date,
): Promise<Written> {
  return sqliteWriteTransaction(database, (statements) => {
    const fenced = fencedUpdate(statements, runId, fencingToken, step, events.length, now);
    const read = statements.query.bind(statements);
    const lookups = lookUpStoredSessionsNow(database.client, read, step.sessions, chunkSessionIds(step));
    const sessions = withShallowestBases(step.sessions, lookups);
    if (rows.checkpoint !== null) insertRowsNow(statements, "checkpoints", CHECKPOINT_COLUMNS, [rows.checkpoint]);
    const first = fenced.eventSeq - events.length + 1;
    const createdOffsets = createdEventOffsets(events);
    insertRowsNow(
      statements,
      "sessions",
      SESSION_COLUMNS,
      sessions.map((session) => {
        const offset = createdOffsets.get(session.id);
        return sessionValues(runId, session, now, offset === undefined ? fenced.eventSeq : first + offset);
      }),
    );
    insertRowsNow(statements, "session_parents", SESSION_PARENT_COLUMNS, crossRunParentRowsNow(database.client, read, runId, sessions, lookups));
    const appended = appendedSessions(runId, step, lookups);
    insertRowsNow(statements, "chunks", CHUNK_COLUMNS, rows.chunks);
    for (const update of appended) {
      statements.execute(
        `UPDATE "sessions" SET "chunk_count" = ?, "usage" = ?, "own_usage" = ? WHERE "id" = ? AND "chunk_count" = ?`,
        update.chunkCount,
        usageText(update.usage, "session usage"),
        usageText(update.ownUsage, "session own usage"),
        update.id,
        update.storedCount,
      );
    }
    if (events.length > 0) noteAppendedEvents(runId, fenced.eventSeq);
    insertRowsNow(
      statements,
      "run_events",
      RUN_EVENT_COLUMNS,
      eventRows(events, rows).map((row) => [runId, first + row.lastOffset, row.type, row.payload, now]),
    );
    return { ...fenced, stored: storedAfterCommit(runId, sessions, appended, lookups) };
  });
}

/**
 * The commit as one PostgreSQL statement. What it needs to know of stored sessions is read first (when not
 * remembered); a refusal found there is reported only after the fencing token was checked, as in one transaction.
 */
async function commitOnPostgres(
  database: Database,
  pool: PostgresPool,
  runId: string,
  fencingToken: number,
  step: ParsedCommit,
  events: ReadonlyArray<{ type: string; payload: Record<string, unknown> }>,
  rows: CommitRows,
  now: Date,
): Promise<Written> {
  let sessions: ParsedSession[];
  let appended: AppendedSession[];
  let lookups: Map<string, StoredSession>;
  let parents: SqlValue[][];
  try {
    lookups = await lookUpStoredSessions(database.client, poolReader(pool), step.sessions, chunkSessionIds(step));
    sessions = withShallowestBases(step.sessions, lookups);
    appended = appendedSessions(runId, step, lookups);
    parents = await crossRunParentRows(database.client, poolReader(pool), runId, sessions, lookups);
  } catch (error) {
    await refuseIfFenced(database.client, runId, fencingToken, step.checkpoint);
    throw error;
  }
  const createdOffsets = createdEventOffsets(events);
  const fenced = await runCommitStatement(pool, {
    runId,
    fencingToken,
    tokensUsed: step.tokensUsed,
    eventCount: events.length,
    now,
    checkpoint: step.checkpoint === undefined ? null : { seq: step.checkpoint.seq, planHash: step.checkpoint.planHash, row: rows.checkpoint as SqlValue[] },
    sessions: sessions.map((session) => {
      const offset = createdOffsets.get(session.id);
      // The column values after run_id, without created_at; the created seq counts back from the last event.
      const values = sessionValues(runId, session, now, 0);
      return { values, createdFromEnd: offset === undefined ? 0 : events.length - 1 - offset };
    }),
    parents,
    chunks: rows.chunks,
    appended: appended.map((update) => [update.id, update.storedCount, update.chunkCount, usageText(update.usage, "session usage"), usageText(update.ownUsage, "session own usage")]),
    events: eventRows(events, rows).map((row) => [row.type, row.payload, row.lastOffset + 1]),
  });
  if (fenced === null) {
    await refuseIfFenced(database.client, runId, fencingToken, step.checkpoint);
    throw new RathError("internal", `the commit of run ${runId} wrote nothing, although its fencing token, status and checkpoint seq are valid`);
  }
  return { ...fenced, stored: storedAfterCommit(runId, sessions, appended, lookups) };
}

/** The `run_events` rows of a commit's events: runs of the runtime's kinds packed into one row (run-events.ts). */
function eventRows(events: ReadonlyArray<{ type: string }>, rows: CommitRows): RunEventRow[] {
  return runEventRows(
    events.map((event) => event.type),
    rows.eventPayloads,
  );
}

function usageText(usage: Usage | null, what: string): string | null {
  return usage === null ? null : toJsonText(usage, what);
}

const CHECKPOINT_COLUMNS = ["run_id", "seq", "plan_hash", "state", "next_nodes", "pending_interrupts", "effect_watermark", "at"] as const;
const SESSION_PARENT_COLUMNS = ["session_id", "position", "parent_id"] as const;
const SESSION_COLUMNS = [
  "id",
  "run_id",
  "node_id",
  "parents",
  "lineage_operator",
  "lineage_kind",
  "lineage_extras",
  "placement",
  "usage",
  "chunk_count",
  "base_session_id",
  "base_chunk_count",
  "status",
  "error",
  "created_at",
  "own_usage",
  "inherited_chunk_count",
  "created_seq",
] as const;
const CHUNK_COLUMNS = ["session_id", "index", "kind", "payload", "meta"] as const;

function checkpointValues(runId: string, checkpoint: NonNullable<ParsedCommit["checkpoint"]>, now: Date): SqlValue[] {
  return [
    runId,
    checkpoint.seq,
    checkpoint.planHash,
    toJsonText(checkpoint.state ?? null, "checkpoint state"),
    toJsonText(checkpoint.nextNodes, "checkpoint nextNodes"),
    toJsonText(checkpoint.pendingInterrupts, "checkpoint pendingInterrupts"),
    checkpoint.effectWatermark,
    now,
  ];
}

/** The offset (in the commit's events) of each `session.created` event, by session id (the first one wins). */
function createdEventOffsets(events: ReadonlyArray<{ type: string; payload: Record<string, unknown> }>): Map<string, number> {
  const offsets = new Map<string, number>();
  events.forEach((event, offset) => {
    const sessionId = event.payload.session_id;
    if (event.type === "session.created" && typeof sessionId === "string" && !offsets.has(sessionId)) offsets.set(sessionId, offset);
  });
  return offsets;
}

/** A `sessions` row in SESSION_COLUMNS order. */
function sessionValues(runId: string, session: ParsedSession, now: Date, createdSeq: number): SqlValue[] {
  return [
    session.id,
    runId,
    session.nodeId,
    toJsonText(session.lineage.parent_session_ids, "session parents"),
    session.lineage.lineage_operator,
    session.lineage.lineage_kind,
    toJsonText(session.lineage.lineage_extras, "lineage extras"),
    toJsonText(session.placement, "session placement"),
    usageText(session.usage, "session usage"),
    session.chunkCount,
    session.base?.sessionId ?? null,
    session.base?.chunkCount ?? 0,
    session.status,
    session.error === null ? null : redactStoredText(session.error),
    now,
    usageText(session.ownUsage, "session own usage"),
    session.inheritedChunkCount,
    createdSeq,
  ];
}

function chunkValues({ sessionId, index, chunk }: ParsedChunk): SqlValue[] {
  return [
    sessionId,
    index,
    chunk.kind,
    toJsonText(chunk.payload, `payload of chunk ${sessionId}#${index}`),
    toJsonText(chunk.meta, `meta of chunk ${sessionId}#${index}`),
  ];
}

/**
 * Checks what needs no database: each chunk once; a new session's chunks within its own range
 * [base.chunkCount, chunkCount); a base named in this commit comes before the session and is long enough.
 */
function validateCommitShape(runId: string, step: ParsedCommit): void {
  const position = new Map(step.sessions.map((session, index) => [session.id, index]));
  step.sessions.forEach((session, index) => {
    if (session.inheritedChunkCount > session.chunkCount) {
      throw new RathError("invalid_argument", `session ${session.id} took ${session.inheritedChunkCount} chunks from its parents but has ${session.chunkCount}`);
    }
    if (session.base === null) return;
    if (session.base.chunkCount > session.chunkCount) {
      throw new RathError("invalid_argument", `session ${session.id} shares ${session.base.chunkCount} chunks with its base but has ${session.chunkCount}`);
    }
    const basePosition = position.get(session.base.sessionId);
    if (basePosition === undefined) return;
    const base = step.sessions[basePosition] as ParsedSession;
    if (basePosition >= index) {
      throw new RathError("invalid_argument", `base session ${base.id} of session ${session.id} must come before it in the commit of run ${runId}`);
    }
    if (session.base.chunkCount > base.chunkCount) {
      throw new RathError("invalid_argument", `session ${session.id} shares ${session.base.chunkCount} chunks with base ${base.id}, which has ${base.chunkCount}`);
    }
  });
  const seen = new Set<string>();
  for (const chunk of step.chunks) {
    const key = `${chunk.sessionId}#${chunk.index}`;
    if (seen.has(key)) throw new RathError("invalid_argument", `chunk ${key} is given twice in one commit of run ${runId}`);
    seen.add(key);
    const at = position.get(chunk.sessionId);
    if (at === undefined) continue;
    const session = step.sessions[at] as ParsedSession;
    const ownFrom = session.base?.chunkCount ?? 0;
    if (chunk.index < ownFrom || chunk.index >= session.chunkCount) {
      throw new RathError(
        "invalid_argument",
        `chunk ${key} is outside the chunks session ${session.id} stores itself: expected an index from ${ownFrom} to ${session.chunkCount - 1}`,
      );
    }
  }
}

/** What the fenced update returned: the run's event seq after the commit and whether a cancel was requested. */
interface FencedRun {
  eventSeq: number;
  cancelRequested: boolean;
}

/**
 * The fenced update, first in the transaction (it takes the run row for the commit): adds the tokens, reserves the
 * event sequence numbers and, with a checkpoint, moves `checkpoint_seq` on — only while the token, status, plan
 * hash and previous checkpoint seq are what they must be. When nothing matched, the run is read to say which
 * condition failed.
 */
function fencedUpdate(statements: SyncStatements, runId: string, fencingToken: number, step: ParsedCommit, eventCount: number, now: Date): FencedRun {
  const checkpoint = step.checkpoint;
  const changed = statements.execute(
    checkpoint === undefined ? FENCED_UPDATE_SQL : FENCED_UPDATE_WITH_CHECKPOINT_SQL,
    step.tokensUsed,
    eventCount,
    now,
    ...(checkpoint === undefined ? [] : [checkpoint.seq]),
    runId,
    fencingToken,
    ...(checkpoint === undefined ? [] : [checkpoint.planHash, checkpoint.seq - 1]),
  );
  // The row as the update left it: the transaction holds the write lock, so nothing changed it in between. Read
  // by a second statement instead of a RETURNING clause, which makes SQLite create and drop a temporary table (a
  // b-tree with a page cache of its own) on every step.
  const row =
    changed === 1
      ? statements.query<{ event_seq: number | bigint; cancel_requested: boolean | number | bigint }>(FENCED_RUN_READ_SQL, runId)[0]
      : undefined;
  if (row !== undefined) return { eventSeq: Number(row.event_seq), cancelRequested: Boolean(Number(row.cancel_requested)) };
  const run = statements.query<{ fencing_token: number; status: string; plan_hash: string; checkpoint_seq: number }>(
    `SELECT "fencing_token", "status", "plan_hash", "checkpoint_seq" FROM "runs" WHERE "id" = ?`,
    runId,
  )[0];
  throw (
    fenceRefusal(
      run === undefined ? null : { fencingToken: Number(run.fencing_token), status: run.status, planHash: run.plan_hash, checkpointSeq: Number(run.checkpoint_seq) },
      runId,
      fencingToken,
      checkpoint,
    ) ?? new RathError("internal", `the fenced update of run ${runId} matched nothing, although its fencing token, status and checkpoint seq are valid`)
  );
}

/** The fenced update of `fencedUpdate`, without and with a checkpoint (constant texts: found in the statement cache at once). */
const FENCED_UPDATE_SQL = fencedUpdateSql(false);
const FENCED_UPDATE_WITH_CHECKPOINT_SQL = fencedUpdateSql(true);

function fencedUpdateSql(withCheckpoint: boolean): string {
  return `UPDATE "runs" SET "tokens_used" = "tokens_used" + ?, "event_seq" = "event_seq" + ?, "updated_at" = ?${withCheckpoint ? `, "checkpoint_seq" = ?` : ""}
      WHERE "id" = ? AND "fencing_token" = ? AND "status" = 'running'${withCheckpoint ? ` AND "plan_hash" = ? AND "checkpoint_seq" = ?` : ""}`;
}

/** What the step needs of the run after its fenced update. */
const FENCED_RUN_READ_SQL = `SELECT "event_seq", "cancel_requested" FROM "runs" WHERE "id" = ?`;

/** The run as the fence sees it. */
interface FencedRunRow {
  fencingToken: number;
  status: string;
  planHash: string;
  checkpointSeq: number;
}

/**
 * The refusal the fence gives for this run and token (stale token, run not running, plan hash mismatch,
 * checkpoint seq not last+1), or null when the commit passes it.
 */
function fenceRefusal(run: FencedRunRow | null, runId: string, fencingToken: number, checkpoint: ParsedCommit["checkpoint"]): RathError | null {
  if (run === null) return new RathError("not_found", `run ${runId} not found`);
  if (run.fencingToken !== fencingToken) return staleTokenError(runId, fencingToken, run.fencingToken, run.status);
  if (run.status !== "running") {
    return new LeaseLostError({ runId, givenToken: fencingToken, currentToken: run.fencingToken, reason: "not_running", runStatus: run.status, action: "a step cannot be committed" });
  }
  if (checkpoint === undefined) return null;
  if (checkpoint.planHash !== run.planHash) {
    return new RathError("conflict", `checkpoint plan hash mismatch for run ${runId}: expected ${run.planHash}, found ${checkpoint.planHash}`, {
      details: { runId, expected: run.planHash, found: checkpoint.planHash },
    });
  }
  const expected = run.checkpointSeq + 1;
  if (checkpoint.seq !== expected) {
    return new RathError("conflict", `checkpoint seq for run ${runId} must follow the last one: expected ${expected}, found ${checkpoint.seq}`, {
      details: { runId, expected, found: checkpoint.seq },
    });
  }
  return null;
}

/** Throws the fence's refusal of this commit (read through Prisma), if any. */
async function refuseIfFenced(client: Database["client"], runId: string, fencingToken: number, checkpoint: ParsedCommit["checkpoint"]): Promise<void> {
  const run = await client.run.findUnique({ where: { id: runId }, select: { fencingToken: true, status: true, planHash: true, checkpointSeq: true } });
  const refusal = fenceRefusal(run, runId, fencingToken, checkpoint);
  if (refusal !== null) throw refusal;
}

/** A session stored by an earlier step that this commit appends chunks to: its new chunk count and usages. */
interface AppendedSession {
  id: string;
  storedCount: number;
  chunkCount: number;
  usage: Usage | null;
  ownUsage: Usage | null;
}

/**
 * Checks the chunks for sessions stored earlier (they must be this run's, at indices after the stored ones) and
 * returns each such session's new chunk count and usages (the stored ones plus the new chunks' usage: appended
 * chunks are the session's own).
 */
function appendedSessions(runId: string, step: ParsedCommit, stored: ReadonlyMap<string, StoredSession>): AppendedSession[] {
  const inCommit = new Set(step.sessions.map((session) => session.id));
  const bySession = new Map<string, ParsedChunk[]>();
  for (const chunk of step.chunks) {
    if (inCommit.has(chunk.sessionId)) continue;
    const list = bySession.get(chunk.sessionId) ?? [];
    list.push(chunk);
    bySession.set(chunk.sessionId, list);
  }
  const foreign = [...bySession.keys()].filter((id) => stored.get(id)?.runId !== runId);
  if (foreign.length > 0) {
    throw new RathError("invalid_argument", `chunks refer to sessions that are not sessions of run ${runId}: ${foreign.join(", ")}`);
  }
  const appended: AppendedSession[] = [];
  for (const [id, chunks] of bySession) {
    const session = stored.get(id) as StoredSession;
    const clash = chunks.find((chunk) => chunk.index < session.chunkCount);
    if (clash !== undefined) {
      throw new RathError("conflict", `chunk ${id}#${clash.index} is already stored: session ${id} has ${session.chunkCount} chunks; append from index ${session.chunkCount}`);
    }
    if (session.usages === undefined) throw new RathError("internal", `the usages of session ${id} were not read before appending to it`);
    let usage = session.usages.usage;
    let ownUsage = session.usages.ownUsage;
    for (const chunk of chunks) {
      usage = addUsage(usage, chunk.chunk.meta.usage);
      ownUsage = addUsage(ownUsage, chunk.chunk.meta.usage);
    }
    appended.push({ id, storedCount: session.chunkCount, chunkCount: Math.max(...chunks.map((chunk) => chunk.index + 1)), usage, ownUsage });
  }
  return appended;
}

/** Maps a `checkpoints` row to a CheckpointRecord. */
export function toCheckpointRecord(row: CheckpointRow): CheckpointRecord {
  const what = `checkpoint ${row.runId}#${row.seq}`;
  return {
    runId: row.runId,
    seq: row.seq,
    planHash: row.planHash,
    state: fromJsonText(row.state, AnyJson, `state of ${what}`),
    nextNodes: fromJsonText(row.nextNodes, StringList, `next nodes of ${what}`),
    pendingInterrupts: fromJsonText(row.pendingInterrupts, StringList, `pending interrupts of ${what}`),
    effectWatermark: row.effectWatermark,
    at: row.at,
  };
}

/** The run's last checkpoint, or null before the first step (a raw read: every run execution starts with it). */
export async function latestCheckpoint(database: Database, runId: string): Promise<CheckpointRecord | null> {
  const [row] = await rowReader(database)<{ seq: number | bigint; plan_hash: string; state: string; next_nodes: string; pending_interrupts: string; effect_watermark: number | bigint; at: string | Date }>(
    `SELECT "seq", "plan_hash", "state", "next_nodes", "pending_interrupts", "effect_watermark", CAST("at" AS TEXT) AS "at"
      FROM "checkpoints" WHERE "run_id" = ? ORDER BY "seq" DESC LIMIT 1`,
    runId,
  );
  if (row === undefined) return null;
  return toCheckpointRecord({
    runId,
    seq: Number(row.seq),
    planHash: row.plan_hash,
    state: row.state,
    nextNodes: row.next_nodes,
    pendingInterrupts: row.pending_interrupts,
    effectWatermark: Number(row.effect_watermark),
    at: utcTimestamp(row.at),
  });
}

/** One checkpoint by sequence number (e.g. to fork a run from an earlier step), or null. */
export async function getCheckpoint(database: Database, runId: string, seq: number): Promise<CheckpointRecord | null> {
  const row = await database.client.checkpoint.findUnique({ where: { runId_seq: { runId, seq } } });
  return row === null ? null : toCheckpointRecord(row);
}

/**
 * The checkpoint to resume a run from: the latest one, refused with `conflict` when it was written for another
 * plan (the revision's compiled plan changed). Null when the run has no checkpoint yet (start from the beginning).
 */
export async function checkpointForResume(database: Database, runId: string, planHash: string): Promise<CheckpointRecord | null> {
  const checkpoint = await latestCheckpoint(database, runId);
  if (checkpoint !== null && checkpoint.planHash !== planHash) {
    throw new RathError(
      "conflict",
      `cannot resume run ${runId} from checkpoint ${checkpoint.seq}: expected plan hash ${planHash}, found ${checkpoint.planHash}`,
      { details: { runId, seq: checkpoint.seq, expected: planHash, found: checkpoint.planHash } },
    );
  }
  return checkpoint;
}
