/**
 * The effect ledger for tool calls with side effects (SPEC §6): `prepared -> dispatched -> succeeded|failed`,
 * deduplicated by (run, idempotency key). After a crash, `recoverAfterCrash` sends dispatched idempotent calls
 * back to `prepared` (safe to repeat) and marks non-idempotent ones `ambiguous` (a person must decide), in
 * which case the run needs review.
 */
import { z } from "zod";
import { isRathError, RathError } from "../../runtime/errors";
import type { Database, TransactionClient } from "./database";
import type { Effect as EffectRow } from "./generated/sqlite/client";
import { AnyJson, fromJsonText, toJsonText } from "./json-text";
import { rowReader } from "./raw-sql";
import { newSortableId } from "./sortable-id";
import { redactStoredText } from "./stored-secrets";

/** Every status of a ledger entry. */
export const EffectStatus = z.enum(["prepared", "dispatched", "succeeded", "failed", "ambiguous"]);
export type EffectStatus = z.infer<typeof EffectStatus>;

/** A ledger entry with its JSON columns parsed. */
export interface EffectRecord {
  id: string;
  runId: string;
  idempotencyKey: string;
  tool: string;
  args: unknown;
  idempotent: boolean;
  status: EffectStatus;
  result: unknown;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
  dispatchedAt: Date | null;
  settledAt: Date | null;
}

function toEffectRecord(row: EffectRow): EffectRecord {
  return {
    id: row.id,
    runId: row.runId,
    idempotencyKey: row.idempotencyKey,
    tool: row.tool,
    args: fromJsonText(row.args, AnyJson, `args of effect ${row.id}`),
    idempotent: row.idempotent,
    status: EffectStatus.parse(row.status),
    result: row.result === null ? null : fromJsonText(row.result, AnyJson, `result of effect ${row.id}`),
    error: row.error,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    dispatchedAt: row.dispatchedAt,
    settledAt: row.settledAt,
  };
}

/** Input of `prepareEffect`. */
export const PrepareEffectInput = z.object({
  runId: z.string().min(1),
  idempotencyKey: z.string().min(1),
  tool: z.string().min(1),
  args: z.unknown(),
  idempotent: z.boolean(),
});
export type PrepareEffectInput = z.input<typeof PrepareEffectInput>;

/**
 * Records a tool call before it is dispatched. When the run already has an entry with the same idempotency key,
 * returns that entry (`created: false`) so the caller can replay a settled result instead of calling again.
 */
export async function prepareEffect(database: Database, input: PrepareEffectInput): Promise<{ effect: EffectRecord; created: boolean }> {
  const parsed = PrepareEffectInput.parse(input);
  const existing = await findByKey(database.client, parsed.runId, parsed.idempotencyKey);
  if (existing !== null) return { effect: existing, created: false };
  try {
    const effect = await database.transaction(async (transaction) => {
      const row = await transaction.effect.create({
        data: {
          id: newSortableId("eff"),
          runId: parsed.runId,
          idempotencyKey: parsed.idempotencyKey,
          tool: parsed.tool,
          args: toJsonText(parsed.args ?? null, "effect args"),
          idempotent: parsed.idempotent,
          status: "prepared",
        },
      });
      return toEffectRecord(row);
    });
    return { effect, created: true };
  } catch (error) {
    if (isRathError(error, "conflict")) {
      const winner = await findByKey(database.client, parsed.runId, parsed.idempotencyKey);
      if (winner !== null) return { effect: winner, created: false };
    }
    throw error;
  }
}

async function findByKey(client: Database["client"] | TransactionClient, runId: string, idempotencyKey: string): Promise<EffectRecord | null> {
  const row = await client.effect.findUnique({ where: { runId_idempotencyKey: { runId, idempotencyKey } } });
  return row === null ? null : toEffectRecord(row);
}

async function moveEffect(
  database: Database,
  effectId: string,
  from: readonly EffectStatus[],
  to: EffectStatus,
  data: Record<string, unknown>,
): Promise<EffectRecord> {
  return database.transaction(async (transaction) => {
    const updated = await transaction.effect.updateMany({ where: { id: effectId, status: { in: [...from] } }, data: { status: to, ...data } });
    const row = await transaction.effect.findUnique({ where: { id: effectId } });
    if (row === null) throw new RathError("not_found", `effect ${effectId} not found`);
    if (updated.count !== 1) {
      throw new RathError("conflict", `effect ${effectId} cannot move to ${to}: expected status ${from.join(" or ")}, found ${row.status}`, {
        details: { effectId, from, to, actual: row.status },
      });
    }
    return toEffectRecord(row);
  });
}

/** Marks a prepared effect as dispatched (call this right before calling the tool). */
export async function markDispatched(database: Database, effectId: string, now: Date = new Date()): Promise<EffectRecord> {
  return moveEffect(database, effectId, ["prepared"], "dispatched", { dispatchedAt: now });
}

/** The outcome of a tool call: success with a result, or failure with an error message. */
export type EffectOutcome = { status: "succeeded"; result: unknown } | { status: "failed"; error: string };

/**
 * Settles a dispatched effect with its outcome. An `ambiguous` effect can be settled too: that is the person's
 * decision after a crash (they checked whether the call happened).
 */
export async function settleEffect(database: Database, effectId: string, outcome: EffectOutcome, now: Date = new Date()): Promise<EffectRecord> {
  const data =
    outcome.status === "succeeded"
      ? { result: toJsonText(outcome.result ?? null, "effect result"), error: null, settledAt: now }
      : { error: redactStoredText(outcome.error), settledAt: now };
  return moveEffect(database, effectId, ["dispatched", "ambiguous"], outcome.status, data);
}

/** What `recoverAfterCrash` changed, and whether the run must go to `needs_review`. */
export interface RecoveryReport {
  /** Idempotent effects sent back to `prepared` (they will be dispatched again). */
  reprepared: string[];
  /** Non-idempotent effects now `ambiguous`. */
  ambiguous: string[];
  /** True when the run has ambiguous effects (new or from an earlier recovery). */
  needsReview: boolean;
}

/** Applies the crash-recovery rules to every dispatched effect of a run, in one transaction. */
export async function recoverAfterCrash(database: Database, runId: string): Promise<RecoveryReport> {
  // Most runs have nothing in flight: one read decides that without opening a transaction.
  const inFlight = await rowReader(database)<{ status: string }>(
    `SELECT "status" FROM "effects" WHERE "run_id" = ? AND "status" IN ('dispatched', 'ambiguous') LIMIT 1`,
    runId,
  );
  if (inFlight.length === 0) return { reprepared: [], ambiguous: [], needsReview: false };
  return database.transaction(async (transaction) => {
    const dispatched = await transaction.effect.findMany({ where: { runId, status: "dispatched" }, orderBy: { id: "asc" } });
    const reprepared = dispatched.filter((effect) => effect.idempotent).map((effect) => effect.id);
    const ambiguous = dispatched.filter((effect) => !effect.idempotent).map((effect) => effect.id);
    if (reprepared.length > 0) {
      await transaction.effect.updateMany({ where: { id: { in: reprepared } }, data: { status: "prepared", dispatchedAt: null } });
    }
    if (ambiguous.length > 0) {
      await transaction.effect.updateMany({ where: { id: { in: ambiguous } }, data: { status: "ambiguous" } });
    }
    const stillAmbiguous = await transaction.effect.count({ where: { runId, status: "ambiguous" } });
    return { reprepared, ambiguous, needsReview: stillAmbiguous > 0 };
  });
}

/** The ledger of a run in creation order. */
export async function listEffects(database: Database, runId: string): Promise<EffectRecord[]> {
  const rows = await database.client.effect.findMany({ where: { runId }, orderBy: { id: "asc" } });
  return rows.map(toEffectRecord);
}
