/**
 * The run as the store returns it: JSON columns parsed, status typed. `version` changes whenever the status,
 * lease owner or fencing token changes (transitions, claims, lease expiry); heartbeats, step commits and event
 * appends leave it alone, so a worker's expected version stays valid while it works.
 */
import { z } from "zod";
import { RunStatus } from "../engine/run-status";
import type { Run as RunRow } from "./generated/sqlite/client";
import { fromJsonText } from "./json-text";

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
    input: fromJsonText(row.input, z.unknown(), `input of run ${row.id}`),
    output: row.output === null ? null : fromJsonText(row.output, z.unknown(), `output of run ${row.id}`),
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
  };
}
