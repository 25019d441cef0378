/**
 * A person's decision on a run in `needs_review` (it crashed while non-idempotent tool calls were in flight):
 * either say what happened to each ambiguous call and requeue the run — the step is executed again and those
 * calls are replayed from the recorded outcome, not repeated — or fail the run.
 */
import { z } from "zod";
import { isRathError, RathError } from "../../runtime/errors";
import type { Database } from "../db/database";
import { listEffects, settleEffect } from "../db/effect-ledger";
import type { RunRecord } from "../db/run-record";
import { getRun, transition } from "../db/run-store";

/** What happened to one ambiguous call: it ran (with the tool_result content to replay) or it did not. */
export const AmbiguousEffectOutcome = z.discriminatedUnion("status", [
  z.object({ effectId: z.string().min(1), status: z.literal("succeeded"), content: z.string() }),
  z.object({ effectId: z.string().min(1), status: z.literal("failed"), content: z.string() }),
]);
export type AmbiguousEffectOutcome = z.infer<typeof AmbiguousEffectOutcome>;

/** The review decision: requeue with an outcome for every ambiguous call, or fail the run. */
export const ReviewResolution = z.discriminatedUnion("action", [
  z.object({ action: z.literal("requeue"), effects: z.array(AmbiguousEffectOutcome) }),
  z.object({ action: z.literal("fail"), reason: z.string().min(1).optional() }),
]);
export type ReviewResolution = z.infer<typeof ReviewResolution>;

/** Applies a review decision to a `needs_review` run; refuses with `conflict` when an ambiguous call is left undecided. */
export async function resolveReview(database: Database, runId: string, input: ReviewResolution): Promise<RunRecord> {
  const resolution = ReviewResolution.parse(input);
  const run = await getRun(database, runId);
  if (run === null) throw new RathError("not_found", `run ${runId} not found`);
  if (run.status !== "needs_review") throw new RathError("conflict", `run ${runId} is ${run.status}; expected needs_review`);
  if (resolution.action === "fail") {
    const message = resolution.reason ?? "failed by a person after a crash left tool calls ambiguous";
    return transition(database, runId, run.version, "failed", {
      reason: message,
      error: { code: "review_failed", message },
      events: [{ type: "run.execution.failed", payload: { code: "review_failed", message } }],
    });
  }
  const ambiguous = (await listEffects(database, runId)).filter((effect) => effect.status === "ambiguous");
  const given = new Map(resolution.effects.map((outcome) => [outcome.effectId, outcome]));
  const missing = ambiguous.filter((effect) => !given.has(effect.id)).map((effect) => effect.id);
  if (missing.length > 0) throw new RathError("conflict", `run ${runId}: say what happened to every ambiguous tool call before requeueing; undecided: ${missing.join(", ")}`);
  for (const effect of ambiguous) {
    const outcome = given.get(effect.id) as AmbiguousEffectOutcome;
    await settleEffect(database, effect.id, outcome.status === "succeeded" ? { status: "succeeded", result: outcome.content } : { status: "failed", error: outcome.content });
  }
  try {
    return await transition(database, runId, run.version, "queued", { reason: `reviewed: ${ambiguous.length} ambiguous call(s) settled` });
  } catch (error) {
    if (isRathError(error, "conflict")) throw new RathError("conflict", `run ${runId} changed while it was being reviewed; reload and try again`, { cause: error });
    throw error;
  }
}
