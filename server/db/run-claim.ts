/**
 * The claim of a queued run as one write (run-update.ts): on PostgreSQL ONE statement (the claiming update and its
 * two events as data-modifying CTEs, one round trip and one commit; live readers are woken after it), on SQLite one
 * write transaction of two prepared statements on the adapter's connection. The update also reserves the events' sequence numbers and returns the
 * whole row, so neither a separate event_seq update nor a read of the run follows it. run-lease.ts holds the claim
 * conditions (`claimNext`, `claimRun`).
 */
import type { Database } from "./database";
import { toJsonText } from "./json-text";
import type { SqlValue } from "./raw-sql";
import type { RunRecord } from "./run-record";
import { updateRunWithEvents } from "./run-update";

/** The columns a claim sets (its first four placeholders: worker id, lease end, now, now), events reserved included. */
export const CLAIM_SET = `SET "status" = 'running', "lease_owner" = ?, "fencing_token" = "fencing_token" + 1, "version" = "version" + 1,
      "lease_expires_at" = ?, "started_at" = COALESCE("started_at", ?), "updated_at" = ?, "event_seq" = "event_seq" + 2`;

/**
 * `run.claimed`'s payload up to its fencing token: the token is the database's (the claim increments it), so the
 * text is completed where the token is known. Redaction happens here, on the whole text with a stand-in token.
 */
function claimedPayloadPrefix(workerId: string): string {
  const text = toJsonText({ worker_id: workerId, fencing_token: 0 }, "payload of event run.claimed");
  return text.slice(0, -2);
}

/**
 * Runs `update` (a claiming `UPDATE "runs" <CLAIM_SET> WHERE ... RETURNING *` whose placeholders are the four of
 * CLAIM_SET, then `extra`) and, when it took a run, appends `run.state.changed {queued -> running, claimed}` and
 * `run.claimed {worker_id, fencing_token}` in the same transaction. Returns the claimed run, or null.
 */
export async function claimWithStatement(
  database: Database,
  update: string,
  workerId: string,
  leaseMs: number,
  now: Date,
  extra: readonly SqlValue[],
): Promise<RunRecord | null> {
  const values: SqlValue[] = [workerId, new Date(now.getTime() + leaseMs), now, now, ...extra];
  const changed = toJsonText({ from: "queued", to: "running", reason: "claimed" }, "payload of event run.state.changed");
  return updateRunWithEvents(
    database,
    update,
    values,
    [
      { type: "run.state.changed", payload: changed },
      { type: "run.claimed", payload: claimedPayloadPrefix(workerId), endsWithFencingToken: true },
    ],
    now,
  );
}
