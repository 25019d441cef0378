/**
 * A worker moving the run it holds out of `running` (succeeded, failed, waiting, ...), fenced by its token, in one
 * statement on PostgreSQL (one round trip: update and events as data-modifying CTEs, live readers woken after it) and one write
 * transaction of two prepared statements on SQLite (run-update.ts) — instead of a read, then `transition`'s interactive transaction.
 * The update matches only while the run is `running` with this fencing token; then its version is the one the
 * claim gave (every other change of a run's version also changes its status or token), so this is the same
 * optimistic check as `transition(run.version, ...)`. When nothing matches it writes nothing and returns null: the
 * caller reads the run to say why.
 */
import type { Database } from "./database";
import { toJsonText } from "./json-text";
import type { SqlValue } from "./raw-sql";
import { RunFailure, type RunRecord } from "./run-record";
import { assertTransition, RunStatus } from "./run-status";
import { statusChanges, type TransitionOptions } from "./run-store";
import { updateRunWithEvents } from "./run-update";

/**
 * Moves the running run `runId` held with `fencingToken` to `to`, with the same columns and events as
 * `transition` (`run.state.changed {from: "running", to, reason}`, then `options.events`). Returns the run after
 * the change, or null when the run is no longer running with this token (nothing written).
 */
export async function finishHeldRun(
  database: Database,
  runId: string,
  fencingToken: number,
  to: RunStatus,
  options: Omit<TransitionOptions, "fencingToken"> = {},
): Promise<RunRecord | null> {
  const target = RunStatus.parse(to);
  assertTransition("running", target);
  const failure = options.error === undefined ? undefined : RunFailure.parse(options.error);
  const now = new Date();
  const changes = statusChanges({ status: "running", startedAt: now }, target, { ...options, error: failure }, now);
  const events = [{ type: "run.state.changed", payload: { from: "running", to: target, reason: options.reason ?? null } }, ...(options.events ?? [])];
  const set = `"version" = "version" + 1, "event_seq" = "event_seq" + ?, ${changes.map(([column]) => `"${column}" = ?`).join(", ")}`;
  const values: SqlValue[] = [events.length, ...changes.map(([, value]) => value), runId, fencingToken];
  const update = `UPDATE "runs" SET ${set} WHERE "id" = ? AND "fencing_token" = ? AND "status" = 'running' RETURNING *`;
  return updateRunWithEvents(database, update, values, events.map((event) => ({ type: event.type, payload: toJsonText(event.payload ?? {}, `payload of event ${event.type}`) })), now);
}
