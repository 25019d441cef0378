/**
 * The run as the store returns it: JSON columns parsed, status typed. `version` changes whenever the status,
 * lease owner or fencing token changes (transitions, claims, lease expiry); heartbeats, step commits and event
 * appends leave it alone, so a worker's expected version stays valid while it works.
 */
import { z } from "zod";
import { RunStatus } from "./run-status";
import type { Run as RunRow } from "./generated/sqlite/client";
import { AnyJson, fromJsonText } from "./json-text";

/** Why a run failed, as stored in `runs.error` (extra keys are kept). */
export const RunFailure = z.looseObject({ code: z.string(), message: z.string() });
export type RunFailure = z.infer<typeof RunFailure>;

/** A run with its JSON columns parsed. */
export interface RunRecord {
  id: string;
  workflowId: string;
  revisionId: string;
  planHash: string;
  status: RunStatus;
  version: number;
  priority: number;
  input: unknown;
  output: unknown;
  error: RunFailure | null;
  idempotencyKey: string | null;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  fencingToken: number;
  tokenBudget: number | null;
  tokensUsed: number;
  cancelRequested: boolean;
  /** Sequence number of the run's last event (0 before the first). */
  lastEventSeq: number;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** When the run times out if it is not finished (null: no run timeout). */
  deadlineAt: Date | null;
  /** While waiting: the earliest expiry of the approvals it waits on (null otherwise). */
  waitDeadlineAt: Date | null;
}

/** Maps a `runs` row to a RunRecord. */
export function toRunRecord(row: RunRow): RunRecord {
  return {
    id: row.id,
    workflowId: row.workflowId,
    revisionId: row.revisionId,
    planHash: row.planHash,
    status: RunStatus.parse(row.status),
    version: row.version,
    priority: row.priority,
    input: fromJsonText(row.input, AnyJson, `input of run ${row.id}`),
    output: row.output === null ? null : fromJsonText(row.output, AnyJson, `output of run ${row.id}`),
    error: row.error === null ? null : fromJsonText(row.error, RunFailure, `error of run ${row.id}`),
    idempotencyKey: row.idempotencyKey,
    leaseOwner: row.leaseOwner,
    leaseExpiresAt: row.leaseExpiresAt,
    fencingToken: row.fencingToken,
    tokenBudget: row.tokenBudget,
    tokensUsed: row.tokensUsed,
    cancelRequested: row.cancelRequested,
    lastEventSeq: row.eventSeq,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    deadlineAt: row.deadlineAt,
    waitDeadlineAt: row.waitDeadlineAt,
  };
}

/** A `runs` row as raw SQL returns it (column names as in the table; both drivers type the values). */
export interface RawRunRow {
  id: string;
  workflow_id: string;
  revision_id: string;
  plan_hash: string;
  status: string;
  version: number | bigint;
  priority: number | bigint;
  input: string;
  output: string | null;
  error: string | null;
  idempotency_key: string | null;
  lease_owner: string | null;
  lease_expires_at: Date | string | null;
  fencing_token: number | bigint;
  token_budget: number | bigint | null;
  tokens_used: number | bigint;
  cancel_requested: boolean | number | bigint;
  event_seq: number | bigint;
  checkpoint_seq: number | bigint;
  created_at: Date | string;
  updated_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  deadline_at: Date | string | null;
  wait_deadline_at: Date | string | null;
}

function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

function toNullableDate(value: Date | string | null): Date | null {
  return value === null ? null : toDate(value);
}

/** Maps a raw `runs` row (SELECT * / RETURNING *) to a RunRecord. */
export function toRunRecordFromRaw(row: RawRunRow): RunRecord {
  return toRunRecord({
    id: row.id,
    workflowId: row.workflow_id,
    revisionId: row.revision_id,
    planHash: row.plan_hash,
    status: row.status,
    version: Number(row.version),
    priority: Number(row.priority),
    input: row.input,
    output: row.output,
    error: row.error,
    idempotencyKey: row.idempotency_key,
    leaseOwner: row.lease_owner,
    leaseExpiresAt: toNullableDate(row.lease_expires_at),
    fencingToken: Number(row.fencing_token),
    tokenBudget: row.token_budget === null ? null : Number(row.token_budget),
    tokensUsed: Number(row.tokens_used),
    cancelRequested: Boolean(Number(row.cancel_requested)),
    eventSeq: Number(row.event_seq),
    checkpointSeq: Number(row.checkpoint_seq),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    startedAt: toNullableDate(row.started_at),
    finishedAt: toNullableDate(row.finished_at),
    deadlineAt: toNullableDate(row.deadline_at),
    waitDeadlineAt: toNullableDate(row.wait_deadline_at),
  });
}
