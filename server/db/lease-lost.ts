/**
 * A worker's write refused because it no longer holds the run's lease: its fencing token is stale (another
 * claim happened) or the run left `running`. Its own type, so callers recognise it without reading the message;
 * it is still a `conflict` RathError for every caller that only maps codes (HTTP 409, tRPC CONFLICT).
 */
import { RathError } from "../../runtime/errors";

/** Why the lease is gone: another claim took the run (`stale_token`), or the run is no longer running. */
export type LeaseLostReason = "stale_token" | "not_running";

/** A write by a worker that lost the run's lease (see the file comment). */
export class LeaseLostError extends RathError {
  readonly runId: string;
  /** The fencing token the worker wrote with. */
  readonly givenToken: number;
  /** The run's current fencing token. */
  readonly currentToken: number;
  readonly reason: LeaseLostReason;
  /** The run's status when the write was refused. */
  readonly runStatus: string;

  constructor(fields: { runId: string; givenToken: number; currentToken: number; reason: LeaseLostReason; runStatus: string; action: string }) {
    const why =
      fields.reason === "stale_token"
        ? `stale fencing token for run ${fields.runId}: expected the current token ${fields.currentToken}, found ${fields.givenToken}; the lease was lost`
        : `run ${fields.runId} is ${fields.runStatus}, not running; ${fields.action}`;
    super("conflict", why, {
      details: { runId: fields.runId, given: fields.givenToken, current: fields.currentToken, reason: fields.reason, status: fields.runStatus },
    });
    this.name = "LeaseLostError";
    this.runId = fields.runId;
    this.givenToken = fields.givenToken;
    this.currentToken = fields.currentToken;
    this.reason = fields.reason;
    this.runStatus = fields.runStatus;
  }
}

/** The error for a write with a fencing token that is no longer the run's. */
export function staleTokenError(runId: string, given: number, current: number, runStatus = "running"): LeaseLostError {
  return new LeaseLostError({ runId, givenToken: given, currentToken: current, reason: "stale_token", runStatus, action: "" });
}
