/**
 * Runs: create (deduplicated by idempotency key), read, list, and change status. Every change is one
 * transaction that also appends its events; status changes are optimistic (the caller names the version it
 * read) and must be legal transitions (server/db/run-status.ts).
 */
import { z } from "zod";
import { isRathError, RathError } from "../../runtime/errors";
import { assertTransition, isTerminalRunStatus, RunStatus } from "./run-status";
import type { Database } from "./database";
import { toJsonText } from "./json-text";
import { forProvider, rawStatements, type RawStatements, type SqlValue } from "./raw-sql";
import { appendRunEvents, type RunEventInput } from "./run-events";
import { RunFailure, toRunRecord, toRunRecordFromRaw, type RawRunRow, type RunRecord } from "./run-record";
import { newSortableId } from "./sortable-id";
import { staleTokenError } from "./lease-lost";

/**
 * Input of `createRun`. The idempotency key is unique per workflow: creating a run again with the same
 * (workflowId, idempotencyKey) returns the first run unchanged when `requestFingerprint` is the first request's
 * (or either is missing), and is refused with `idempotency_key_reused` when it differs.
 */
export const CreateRunInput = z.object({
  workflowId: z.string().min(1),
  revisionId: z.string().min(1),
  planHash: z.string().min(1),
  input: z.unknown(),
  priority: z.number().int().default(0),
  idempotencyKey: z.string().min(1).max(200).optional(),
  tokenBudget: z.number().int().positive().optional(),
  /** The run times out (`timed_out`) this many ms after its creation unless it is finished by then. */
  timeoutMs: z.number().int().positive().optional(),
  /** A hash of the request that asked for the run (compared when the idempotency key repeats). */
  requestFingerprint: z.string().min(1).optional(),
});
export type CreateRunInput = z.input<typeof CreateRunInput>;

/**
 * The run a repeated idempotency key names, or `idempotency_key_reused` when the first request had another
 * fingerprint (as Stripe answers a key reused with different parameters). The fingerprint of the first request
 * is in its `run.created` event; runs created before fingerprints were recorded match any request.
 */
async function sameRequestOrRefuse(database: Database, run: RunRecord, key: string, fingerprint: string | undefined): Promise<RunRecord> {
  if (fingerprint === undefined) return run;
  const created = await database.client.runEvent.findFirst({ where: { runId: run.id, type: "run.created" }, orderBy: { seq: "asc" } });
  const recorded = created === null ? undefined : (JSON.parse(created.payload) as { request_fingerprint?: unknown }).request_fingerprint;
  if (typeof recorded === "string" && recorded !== fingerprint) {
    throw new RathError(
      "idempotency_key_reused",
      `Idempotency-Key '${key}' was already used for run ${run.id} with a different request; send the same request to get that run, or use a new key`,
      { details: { run_id: run.id } },
    );
  }
  return run;
}

/** Creates a queued run (event `run.created`), or returns the existing run for the same idempotency key. */
export async function createRun(database: Database, input: CreateRunInput): Promise<{ run: RunRecord; created: boolean }> {
  const parsed = CreateRunInput.parse(input);
  const existing = await findByIdempotencyKey(database, parsed.workflowId, parsed.idempotencyKey);
  if (existing !== null) {
    return { run: await sameRequestOrRefuse(database, existing, parsed.idempotencyKey as string, parsed.requestFingerprint), created: false };
  }
  try {
    const run = await database.transaction(async (transaction) => {
      const revision = await transaction.workflowRevision.findUnique({ where: { id: parsed.revisionId } });
      if (revision === null || revision.workflowId !== parsed.workflowId) {
        throw new RathError(
          "not_found",
          `revision ${parsed.revisionId} of workflow ${parsed.workflowId} not found${
            revision === null ? "" : `; it belongs to workflow ${revision.workflowId}`
          }`,
        );
      }
      const id = newSortableId("run");
      const now = new Date();
      await transaction.run.create({
        data: {
          id,
          workflowId: parsed.workflowId,
          revisionId: parsed.revisionId,
          planHash: parsed.planHash,
          status: "queued",
          priority: parsed.priority,
          input: toJsonText(parsed.input ?? null, "run input", { redact: false }),
          idempotencyKey: parsed.idempotencyKey ?? null,
          tokenBudget: parsed.tokenBudget ?? null,
          createdAt: now,
          deadlineAt: parsed.timeoutMs === undefined ? null : new Date(now.getTime() + parsed.timeoutMs),
        },
      });
      await appendRunEvents(rawStatements(database, transaction), id, [
        {
          type: "run.created",
          payload: {
            workflow_id: parsed.workflowId,
            revision_id: parsed.revisionId,
            plan_hash: parsed.planHash,
            priority: parsed.priority,
            ...(parsed.requestFingerprint === undefined ? {} : { request_fingerprint: parsed.requestFingerprint }),
          },
        },
      ]);
      return readRun(rawStatements(database, transaction), id);
    });
    return { run, created: true };
  } catch (error) {
    // Two concurrent creates with the same key: the loser's insert violates the unique index; return the winner.
    if (isRathError(error, "conflict") && parsed.idempotencyKey !== undefined) {
      const winner = await findByIdempotencyKey(database, parsed.workflowId, parsed.idempotencyKey);
      if (winner !== null) return { run: await sameRequestOrRefuse(database, winner, parsed.idempotencyKey, parsed.requestFingerprint), created: false };
    }
    throw error;
  }
}

async function findByIdempotencyKey(database: Database, workflowId: string, key: string | undefined): Promise<RunRecord | null> {
  if (key === undefined) return null;
  const row = await database.client.run.findUnique({ where: { workflowId_idempotencyKey: { workflowId, idempotencyKey: key } } });
  return row === null ? null : toRunRecord(row);
}

const SELECT_RUN_SQL = `SELECT * FROM "runs" WHERE "id" = ?`;

/** Reads a run inside a transaction (raw SQL: it is on every worker path); throws `not_found` when it does not exist. */
export async function readRun(statements: RawStatements, runId: string): Promise<RunRecord> {
  const [row] = await statements.query<RawRunRow>(SELECT_RUN_SQL, runId);
  if (row === undefined) throw new RathError("not_found", `run ${runId} not found`);
  return toRunRecordFromRaw(row);
}

/** Returns the run, or null when there is none with that id. */
export async function getRun(database: Database, runId: string): Promise<RunRecord | null> {
  const [row] = await database.client.$queryRawUnsafe<RawRunRow[]>(forProvider(database.provider, SELECT_RUN_SQL), runId);
  return row === undefined ? null : toRunRecordFromRaw(row);
}

/** Filters and paging of `listRuns`; the cursor is the `nextCursor` of the previous page. */
export const ListRunsInput = z.object({
  workflowId: z.string().min(1).optional(),
  /** Part of the run id or of its workflow's name, case-insensitive on both providers (ASCII only on SQLite). */
  search: z.string().trim().min(1).max(200).optional(),
  status: z.union([RunStatus, z.array(RunStatus).min(1)]).optional(),
  limit: z.number().int().min(1).max(200).default(50),
  cursor: z.string().min(1).optional(),
});
export type ListRunsInput = z.input<typeof ListRunsInput>;

/**
 * A `contains` filter that ignores case on both providers: SQLite's LIKE already does (ASCII), PostgreSQL's needs
 * `mode: "insensitive"` (ILIKE), which the client — typed with the SQLite schema — does not declare.
 */
function containsText(database: Database, text: string): { contains: string } {
  return database.provider === "postgresql" ? ({ contains: text, mode: "insensitive" } as { contains: string }) : { contains: text };
}

/** A page of runs, newest first, and the cursor of the next page (null on the last page). */
export async function listRuns(
  database: Database,
  input: ListRunsInput = {},
): Promise<{ runs: RunRecord[]; nextCursor: string | null }> {
  const parsed = ListRunsInput.parse(input);
  const statuses = parsed.status === undefined ? undefined : Array.isArray(parsed.status) ? parsed.status : [parsed.status];
  const rows = await database.client.run.findMany({
    where: {
      ...(parsed.workflowId === undefined ? {} : { workflowId: parsed.workflowId }),
      ...(statuses === undefined ? {} : { status: { in: statuses } }),
      ...(parsed.cursor === undefined ? {} : { id: { lt: parsed.cursor } }),
      ...(parsed.search === undefined ? {} : { OR: [{ id: containsText(database, parsed.search) }, { workflow: { name: containsText(database, parsed.search) } }] }),
    },
    orderBy: { id: "desc" },
    take: parsed.limit + 1,
  });
  const page = rows.slice(0, parsed.limit);
  return {
    runs: page.map(toRunRecord),
    nextCursor: rows.length > parsed.limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}

/** Options of `transition`. */
export interface TransitionOptions {
  /** Why the status changes; recorded in the `run.state.changed` event. */
  reason?: string;
  /** When given, the run's fencing token must still be this one (a worker finishing the run it holds). */
  fencingToken?: number;
  /** The run's result (usually with `succeeded`). */
  output?: unknown;
  /** Why the run failed (usually with `failed`, `timed_out`, `needs_review`). */
  error?: RunFailure;
  /** More events to append after `run.state.changed`, in the same transaction (e.g. `run.execution.completed`). */
  events?: readonly RunEventInput[];
  /** With `waiting`: the earliest expiry of the approvals the run waits on (stored as `waitDeadlineAt`). */
  waitDeadlineAt?: Date | null;
}

/**
 * The columns a status change from `run.status` to `target` sets (besides `version`): the status and
 * `updated_at`; leaving `running` clears the lease; entering or leaving `waiting` sets `wait_deadline_at`; a
 * terminal status sets `finished_at`; the first `running` sets `started_at`; the output and error as JSON.
 */
export function statusChanges(
  run: Pick<RunRecord, "status" | "startedAt">,
  target: RunStatus,
  options: Pick<TransitionOptions, "output" | "error" | "waitDeadlineAt">,
  now: Date,
): Array<[string, SqlValue]> {
  const leavesRunning = run.status === "running" && target !== "running";
  const waitDeadline = target === "waiting" ? (options.waitDeadlineAt ?? null) : null;
  return [
    ["status", target],
    ["updated_at", now],
    ...(leavesRunning ? ([["lease_owner", null], ["lease_expires_at", null]] as Array<[string, SqlValue]>) : []),
    ...(target === "waiting" || run.status === "waiting" ? ([["wait_deadline_at", waitDeadline]] as Array<[string, SqlValue]>) : []),
    ...(isTerminalRunStatus(target) ? ([["finished_at", now]] as Array<[string, SqlValue]>) : []),
    ...(target === "running" && run.startedAt === null ? ([["started_at", now]] as Array<[string, SqlValue]>) : []),
    ...(options.output === undefined ? [] : ([["output", toJsonText(options.output, "run output")]] as Array<[string, SqlValue]>)),
    ...(options.error === undefined ? [] : ([["error", toJsonText(options.error, "run error")]] as Array<[string, SqlValue]>)),
  ];
}

/**
 * Moves a run from its current status to `to`, if its version is still `expectedVersion` and the transition is
 * legal. Appends `run.state.changed {from, to, reason}`; leaving `running` clears the lease; a terminal status
 * sets `finishedAt`; entering `waiting` stores `options.waitDeadlineAt`, leaving it clears it. Refuses with
 * `conflict` (stale version, stale fencing token, illegal transition).
 * Workers start runs with `claimNext` (lease + fencing token), not with `transition(..., "running")`.
 */
export async function transition(
  database: Database,
  runId: string,
  expectedVersion: number,
  to: RunStatus,
  options: TransitionOptions = {},
): Promise<RunRecord> {
  const target = RunStatus.parse(to);
  const failure = options.error === undefined ? undefined : RunFailure.parse(options.error);
  return database.transaction(async (transaction) => {
    const statements = rawStatements(database, transaction);
    const run = await readRun(statements, runId);
    if (run.version !== expectedVersion) {
      throw new RathError(
        "conflict",
        `run ${runId} was changed concurrently: expected version ${expectedVersion}, found ${run.version} (status ${run.status})`,
        { details: { runId, expectedVersion, actualVersion: run.version } },
      );
    }
    if (options.fencingToken !== undefined && run.fencingToken !== options.fencingToken) {
      throw staleTokenError(runId, options.fencingToken, run.fencingToken, run.status);
    }
    assertTransition(run.status, target);
    const now = new Date();
    const changes = statusChanges(run, target, { ...options, error: failure }, now);
    const updated = await statements.execute(
      `UPDATE "runs" SET "version" = "version" + 1, ${changes.map(([column]) => `"${column}" = ?`).join(", ")} WHERE "id" = ? AND "version" = ?`,
      ...changes.map(([, value]) => value),
      runId,
      expectedVersion,
    );
    if (updated !== 1) {
      throw new RathError("conflict", `run ${runId} was changed concurrently: expected version ${expectedVersion}`, {
        details: { runId, expectedVersion },
      });
    }
    await appendRunEvents(
      statements,
      runId,
      [
        { type: "run.state.changed", payload: { from: run.status, to: target, reason: options.reason ?? null } },
        ...(options.events ?? []),
      ],
      now,
    );
    return readRun(statements, runId);
  });
}

/** The `conflict` error for a commit or heartbeat with a fencing token that is no longer the run's (a LeaseLostError). */
export { staleTokenError };

/**
 * Cancels a run: a queued, waiting or needs_review run moves to `cancelled` at once; a running run gets
 * `cancelRequested` (its worker sees it on the next heartbeat and finishes as cancelled). Terminal runs are
 * returned unchanged.
 */
export async function requestCancel(database: Database, runId: string, reason = "cancel requested"): Promise<RunRecord> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const run = await getRun(database, runId);
    if (run === null) throw new RathError("not_found", `run ${runId} not found`);
    if (isTerminalRunStatus(run.status)) return run;
    if (run.status === "running") {
      const flagged = await database.transaction(async (transaction) => {
        const updated = await transaction.run.updateMany({ where: { id: runId, status: "running" }, data: { cancelRequested: true } });
        return updated.count === 1 ? readRun(rawStatements(database, transaction), runId) : null;
      });
      if (flagged !== null) return flagged;
      continue;
    }
    try {
      return await transition(database, runId, run.version, "cancelled", { reason });
    } catch (error) {
      if (!isRathError(error, "conflict")) throw error;
    }
  }
  throw new RathError("conflict", `run ${runId} kept changing while it was being cancelled; try again`);
}
