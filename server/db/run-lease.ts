/**
 * Leases: workers claim queued runs (priority first, then FIFO by run id, which is time-ordered), renew the
 * lease with heartbeats, and runs whose lease expired go back to the queue. Each claim increments the run's
 * fencing token; every later write by the worker names its token and is refused once another claim happened.
 */
import { RathError } from "../../runtime/errors";
import type { Database } from "./database";
import { toJsonText } from "./json-text";
import { rawStatements } from "./raw-sql";
import { appendRunEvents } from "./run-events";
import { CLAIM_SET, claimWithStatement } from "./run-claim";
import type { RunRecord } from "./run-record";
import { LeaseLostError, staleTokenError } from "./lease-lost";
import { readRun } from "./run-store";

/** What a successful claim returns: the run (now `running`, leased to the worker) and the token to fence writes. */
export interface Claim {
  run: RunRecord;
  fencingToken: number;
}

// One atomic statement: pick the best queued run and take it, only if it is still queued. On PostgreSQL the
// subquery skips rows other claimers have locked, so concurrent workers take different runs without waiting.
// The lease, the start time (first claim only), updated_at and the claim events' seqs are set in the same
// statement (CLAIM_SET, run-claim.ts).
const CLAIM_NEXT_SQL = {
  sqlite: `UPDATE "runs" ${CLAIM_SET}
    WHERE "id" = (SELECT "id" FROM "runs" WHERE "status" = 'queued' ORDER BY "priority" DESC, "id" ASC LIMIT 1)
      AND "status" = 'queued'
    RETURNING *`,
  postgresql: `UPDATE "runs" ${CLAIM_SET}
    WHERE "id" = (SELECT "id" FROM "runs" WHERE "status" = 'queued' ORDER BY "priority" DESC, "id" COLLATE "C" ASC
      LIMIT 1 FOR UPDATE SKIP LOCKED)
      AND "status" = 'queued'
    RETURNING *`,
} as const;
// Claiming one named run: on PostgreSQL a concurrent claimer waits for the row lock, then sees it is no longer queued.
const CLAIM_RUN_SQL = `UPDATE "runs" ${CLAIM_SET} WHERE "id" = ? AND "status" = 'queued' RETURNING *`;

function assertLeaseMs(leaseMs: number): void {
  if (!Number.isInteger(leaseMs) || leaseMs <= 0) {
    throw new RathError("invalid_argument", `leaseMs must be a positive integer; found ${leaseMs}`);
  }
}

function assertWorkerId(workerId: string): void {
  if (workerId.trim() === "") throw new RathError("invalid_argument", "workerId must be a non-empty string");
}

/** Runs a claim statement (run-claim.ts: one write with the claim events); returns the claim, or null. */
async function claimWith(database: Database, sql: string, workerId: string, leaseMs: number, now: Date, extra: readonly string[]): Promise<Claim | null> {
  const run = await claimWithStatement(database, sql, workerId, leaseMs, now, extra);
  return run === null ? null : { run, fencingToken: run.fencingToken };
}

/**
 * Claims the next queued run for `workerId` for `leaseMs` milliseconds, or returns null when the queue is empty.
 * Appends `run.state.changed {queued -> running}` and `run.claimed {worker_id, fencing_token}`.
 */
export async function claimNext(database: Database, workerId: string, leaseMs: number, now: Date = new Date()): Promise<Claim | null> {
  assertWorkerId(workerId);
  assertLeaseMs(leaseMs);
  return claimWith(database, CLAIM_NEXT_SQL[database.provider], workerId, leaseMs, now, []);
}

/**
 * Claims the run `runId` (and no other) for `workerId`, like `claimNext`. Returns null when the run is not queued
 * (another worker claimed it first, or it is in another status); `not_found` when there is no such run.
 */
export async function claimRun(database: Database, runId: string, workerId: string, leaseMs: number, now: Date = new Date()): Promise<Claim | null> {
  assertWorkerId(workerId);
  assertLeaseMs(leaseMs);
  const claim = await claimWith(database, CLAIM_RUN_SQL, workerId, leaseMs, now, [runId]);
  if (claim === null && (await database.client.run.findUnique({ where: { id: runId }, select: { id: true } })) === null) {
    throw new RathError("not_found", `run ${runId} not found`);
  }
  return claim;
}

/** What a heartbeat returns: the new lease end, and whether someone asked to cancel the run. */
export interface HeartbeatResult {
  leaseExpiresAt: Date;
  cancelRequested: boolean;
}

/** Renews the lease of a running run held with `fencingToken`; refuses a stale token with `conflict`. */
export async function heartbeat(
  database: Database,
  runId: string,
  fencingToken: number,
  leaseMs: number,
  now: Date = new Date(),
): Promise<HeartbeatResult> {
  assertLeaseMs(leaseMs);
  const leaseExpiresAt = new Date(now.getTime() + leaseMs);
  return database.transaction(async (transaction) => {
    const updated = await transaction.run.updateMany({
      where: { id: runId, fencingToken, status: "running" },
      data: { leaseExpiresAt },
    });
    const run = await readRun(rawStatements(database, transaction), runId);
    if (updated.count !== 1) {
      if (run.fencingToken !== fencingToken) throw staleTokenError(runId, fencingToken, run.fencingToken, run.status);
      throw new LeaseLostError({ runId, givenToken: fencingToken, currentToken: run.fencingToken, reason: "not_running", runStatus: run.status, action: "its lease cannot be renewed" });
    }
    return { leaseExpiresAt, cancelRequested: run.cancelRequested };
  });
}

/**
 * Puts every running run whose lease ended before `now` back in the queue (status `queued`, lease cleared,
 * version incremented; `cancelled` instead when a cancel was requested), appending
 * `run.lease.expired {worker_id, fencing_token}` and `run.state.changed`.
 * Returns the requeued runs. Safe to call from several processes at once: each run is requeued once.
 */
export async function expireLeases(database: Database, now: Date = new Date()): Promise<RunRecord[]> {
  const candidates = await database.client.run.findMany({
    where: { status: "running", leaseExpiresAt: { lt: now } },
    select: { id: true, fencingToken: true, leaseOwner: true, cancelRequested: true },
    orderBy: { id: "asc" },
    take: 500,
  });
  return requeueLeased(database, candidates, now, "lease expired");
}

/**
 * Requeues, at once, the running runs leased by workers whose owner id starts with `ownerPrefix` and that
 * `isGone` says are dead (e.g. the previous process of a restarted embedded studio), without waiting for their
 * lease to expire. Each gets the same events as an expired lease, with reason "lease holder gone".
 */
export async function releaseOrphanedLeases(
  database: Database,
  ownerPrefix: string,
  isGone: (leaseOwner: string) => boolean,
  now: Date = new Date(),
): Promise<RunRecord[]> {
  const running = await database.client.run.findMany({
    where: { status: "running", leaseOwner: { startsWith: ownerPrefix } },
    select: { id: true, fencingToken: true, leaseOwner: true, cancelRequested: true },
    orderBy: { id: "asc" },
    take: 500,
  });
  const orphans = running.filter((run) => run.leaseOwner !== null && isGone(run.leaseOwner));
  return requeueLeased(database, orphans, now, "lease holder gone", { leaseCheck: false });
}

async function requeueLeased(
  database: Database,
  candidates: ReadonlyArray<{ id: string; fencingToken: number; leaseOwner: string | null; cancelRequested: boolean }>,
  now: Date,
  reason: string,
  options: { leaseCheck?: boolean } = {},
): Promise<RunRecord[]> {
  const requeued: RunRecord[] = [];
  for (const candidate of candidates) {
    const run = await database.transaction(async (transaction) => {
      // A run whose cancellation was requested is not requeued: nobody is left to honour the request later.
      const to = candidate.cancelRequested ? "cancelled" : "queued";
      const updated = await transaction.run.updateMany({
        where: {
          id: candidate.id,
          status: "running",
          fencingToken: candidate.fencingToken,
          ...(options.leaseCheck === false ? {} : { leaseExpiresAt: { lt: now } }),
        },
        data: {
          status: to,
          leaseOwner: null,
          leaseExpiresAt: null,
          version: { increment: 1 },
          ...(to === "cancelled" ? { finishedAt: now } : {}),
        },
      });
      if (updated.count !== 1) return null;
      await appendRunEvents(
        rawStatements(database, transaction),
        candidate.id,
        [
          { type: "run.lease.expired", payload: { worker_id: candidate.leaseOwner, fencing_token: candidate.fencingToken } },
          { type: "run.state.changed", payload: { from: "running", to, reason } },
        ],
        now,
      );
      return readRun(rawStatements(database, transaction), candidate.id);
    });
    if (run !== null) requeued.push(run);
  }
  return requeued;
}

/** Why `expireDeadlines` timed a run out: its run deadline, or the expiry of an approval it waited on. */
export type DeadlineKind = "run_timeout" | "approval_timeout";

/**
 * Times out every queued or waiting run whose deadline (`deadlineAt`) passed before `now`, and every waiting run
 * whose earliest approval expiry (`waitDeadlineAt`) passed: status `timed_out`, `finishedAt` set, version
 * incremented, `error {code: run_timeout | approval_timeout, message, deadline_at}`, appending
 * `run.state.changed` and `run.execution.timed_out` (payload: the error). Running runs are their worker's (it
 * checks the deadline between steps and at each heartbeat). Returns the runs timed out; safe to call from several
 * processes at once: each run is timed out once.
 */
export async function expireDeadlines(database: Database, now: Date = new Date()): Promise<RunRecord[]> {
  const candidates = await database.client.run.findMany({
    where: {
      OR: [
        { status: { in: ["queued", "waiting"] }, deadlineAt: { lt: now } },
        { status: "waiting", waitDeadlineAt: { lt: now } },
      ],
    },
    select: { id: true, status: true, version: true, deadlineAt: true, waitDeadlineAt: true },
    orderBy: { id: "asc" },
    take: 500,
  });
  const timedOut: RunRecord[] = [];
  for (const candidate of candidates) {
    const runExpired = candidate.deadlineAt !== null && candidate.deadlineAt < now;
    const deadline = (runExpired ? candidate.deadlineAt : candidate.waitDeadlineAt) as Date;
    const code: DeadlineKind = runExpired ? "run_timeout" : "approval_timeout";
    const error = {
      code,
      message: runExpired
        ? `run ${candidate.id} did not finish by its deadline ${deadline.toISOString()}; it was ${candidate.status}`
        : `run ${candidate.id} waited for an approval that nobody decided by ${deadline.toISOString()}`,
      deadline_at: deadline.toISOString(),
    };
    const run = await database.transaction(async (transaction) => {
      const updated = await transaction.run.updateMany({
        where: { id: candidate.id, status: candidate.status, version: candidate.version },
        data: {
          status: "timed_out",
          version: { increment: 1 },
          error: toJsonText(error, "run error"),
          finishedAt: now,
          updatedAt: now,
          waitDeadlineAt: null,
        },
      });
      if (updated.count !== 1) return null;
      const statements = rawStatements(database, transaction);
      await appendRunEvents(
        statements,
        candidate.id,
        [
          { type: "run.state.changed", payload: { from: candidate.status, to: "timed_out", reason: code === "run_timeout" ? "run deadline passed" : "approval expired" } },
          { type: "run.execution.timed_out", payload: error },
        ],
        now,
      );
      return readRun(statements, candidate.id);
    });
    if (run !== null) timedOut.push(run);
  }
  return timedOut;
}
