/**
 * The runtime's tool-dispatch effect hooks backed by the effect ledger (server/db/effect-ledger.ts). Every tool
 * call of a step is recorded under the idempotency key `<run>:<node>:<step seq>:<tool call id>`; a call already
 * settled (by an earlier attempt, or before a crash) is replayed from its recorded content instead of running.
 * A re-executed step whose model gives new call ids is matched by tool and arguments instead.
 */
import { RathError } from "../../runtime/errors";
import type { EffectCall, EffectHooks } from "../../runtime/tools/effects";
import type { Database } from "../db/database";
import { canonicalJson } from "../../runtime/workflow-spec/canonical-json";
import { listEffects, markDispatched, prepareEffect, settleEffect, type EffectRecord } from "../db/effect-ledger";

/** Where a step's tool calls belong: the run, the node and the checkpoint sequence number the step will write. */
export interface EffectScope {
  runId: string;
  nodeId: string;
  stepSeq: number;
}

/** The ledger key of one tool call of a step. */
export function effectKey(scope: EffectScope, callId: string): string {
  return `${scope.runId}:${scope.nodeId}:${scope.stepSeq}:${callId}`;
}

/** Ledger hooks for one step attempt, and how many effects they settled (the checkpoint's effect watermark grows by it). */
export interface LedgerEffectHooks extends EffectHooks {
  readonly settledCount: () => number;
}

function replayContent(effect: EffectRecord): string | undefined {
  if (effect.status === "succeeded") return typeof effect.result === "string" ? effect.result : JSON.stringify(effect.result);
  if (effect.status === "failed") return effect.error ?? JSON.stringify({ ok: false, error_kind: "tool_execution_exception", message: "the recorded call failed" });
  return undefined;
}

/** How long a retry waits for a call an earlier (timed-out) attempt of this process still runs to settle (ms). */
export const IN_FLIGHT_WAIT_MS = 5_000;

/** Polls a dispatched effect until it settles or `waitMs` pass; returns its latest record. */
async function awaitSettled(database: Database, runId: string, effect: EffectRecord, waitMs: number): Promise<EffectRecord> {
  const deadline = Date.now() + waitMs;
  let current = effect;
  while (current.status === "dispatched" && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    current = (await listEffects(database, runId)).find((entry) => entry.id === effect.id) ?? current;
  }
  return current;
}

/**
 * The ledger entry an earlier execution of this step recorded for the same call: the entry with this call's key,
 * else (a model that does not repeat its call ids, as hosted models do not) the first entry of the step with the
 * same tool and the same arguments that no other call of this attempt took. Null for a new call.
 */
async function sameCallOfStep(database: Database, scope: EffectScope, call: EffectCall, used: ReadonlySet<string>): Promise<EffectRecord | null> {
  const prefix = effectKey(scope, "");
  const ofStep = (await listEffects(database, scope.runId)).filter((effect) => effect.idempotencyKey.startsWith(prefix));
  const exact = ofStep.find((effect) => effect.idempotencyKey === effectKey(scope, call.callId));
  if (exact) return exact;
  const args = canonicalJson(call.args ?? null);
  return ofStep.find((effect) => !used.has(effect.id) && effect.tool === call.tool && canonicalJson(effect.args) === args) ?? null;
}

/** Creates the hooks for one step attempt. */
export function ledgerEffectHooks(database: Database, scope: EffectScope, options: { inFlightWaitMs?: number } = {}): LedgerEffectHooks {
  const waitMs = options.inFlightWaitMs ?? IN_FLIGHT_WAIT_MS;
  const effectIds = new Map<string, string>();
  const used = new Set<string>();
  let settled = 0;
  return {
    async prepare(call: EffectCall) {
      const effect = (await sameCallOfStep(database, scope, call, used)) ?? (await prepareEffect(database, {
        runId: scope.runId,
        idempotencyKey: effectKey(scope, call.callId),
        tool: call.tool,
        args: call.args ?? null,
        idempotent: call.idempotent,
      })).effect;
      used.add(effect.id);
      const current = effect.status === "dispatched" ? await awaitSettled(database, scope.runId, effect, waitMs) : effect;
      const replay = replayContent(current);
      if (replay !== undefined) return { replayContent: replay };
      if (current.status !== "prepared") {
        throw new RathError(
          "conflict",
          `tool call '${call.callId}' (${call.tool}) of step ${scope.stepSeq} is ${current.status} in the effect ledger; expected prepared or settled (it may still be running elsewhere)`,
          { details: { effectId: current.id, status: current.status } },
        );
      }
      effectIds.set(call.callId, effect.id);
      return {};
    },
    async dispatched(callId: string) {
      const effectId = effectIds.get(callId);
      if (effectId === undefined) throw new RathError("internal", `tool call '${callId}' was dispatched without being prepared`);
      await markDispatched(database, effectId);
    },
    async settled(callId: string, result: { ok: boolean; content: string }) {
      const effectId = effectIds.get(callId);
      if (effectId === undefined) throw new RathError("internal", `tool call '${callId}' was settled without being prepared`);
      await settleEffect(database, effectId, result.ok ? { status: "succeeded", result: result.content } : { status: "failed", error: result.content });
      settled += 1;
    },
    settledCount: () => settled,
  };
}
