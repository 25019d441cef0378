/**
 * Comparing two runs of one workflow (what /compare?runs=A,B shows): each run stands for its output session, their
 * common ancestor and divergence, and the token and latency each side spent after the divergence — from usage and
 * latencies the scripted model reports, so the deltas are exact.
 */
import { expect, it } from "vitest";
import { createScriptedProvider, makeUsage } from "../../runtime/testing/scripted-provider";
import { callerFor, expectApiError } from "../api/testing/api-harness";
import type { Database } from "../db/database";
import { describeEachDatabase } from "../db/testing/test-databases";
import { runToCompletion } from "../engine/run-to-completion";
import { minimalSpec } from "../../runtime/workflow-spec/spec-fixtures";
import { outputSessionOf } from "./session-compare";

const spec = minimalSpec();

async function runOnce(database: Database, content: string, usage: ReturnType<typeof makeUsage>, delayMs: number): Promise<string> {
  const { run } = await callerFor(database).runs.start({ spec, input: "Same question." });
  const provider = createScriptedProvider({ steps: [{ content, usage, delayMs }] });
  expect((await runToCompletion(database, run.id, { providers: { scripted: provider }, placement: { backend: "local" } })).status).toBe("succeeded");
  return run.id;
}

describeEachDatabase("compare two runs", (open) => {
  it("finds the shared input, the divergence, a changed answer, and the token and latency each side spent after it", async () => {
    const { database } = await open();
    const first = await runOnce(database, "SQLite is simple.", makeUsage(10, 5), 5);
    const second = await runOnce(database, "PostgreSQL scales out.", makeUsage(20, 12), 40);
    const [left, right] = [await outputSessionOf(database, first), await outputSessionOf(database, second)];
    const comparison = await callerFor(database).sessions.compare({ leftId: left, rightId: right });
    // Different runs share no session: no common ancestor, but the same input chunk.
    expect(comparison).toMatchObject({ commonAncestorId: null, commonPrefix: 1, divergenceIndex: 1, nextIndex: null });
    expect(comparison.differences).toHaveLength(1);
    expect(comparison.differences[0]).toMatchObject({ index: 1, same: false, left: { kind: "assistant", payload: { content: "SQLite is simple." } }, right: { payload: { content: "PostgreSQL scales out." } } });
    expect(comparison.stats).toEqual({ left: { chunks: 1, tokens: 15, latencyMs: 5 }, right: { chunks: 1, tokens: 32, latencyMs: 40 } });
  });

  it("a run that has no session yet cannot stand for a comparison; an unknown run is not found", async () => {
    const { database } = await open();
    const { run } = await callerFor(database).runs.start({ spec, input: "never run" });
    await expect(outputSessionOf(database, run.id)).rejects.toMatchObject({ code: "invalid_argument", message: `run ${run.id} has no sessions to compare yet` });
    await expect(outputSessionOf(database, "run_missing")).rejects.toMatchObject({ code: "not_found" });
    await expectApiError(callerFor(database).sessions.compare({ leftId: "ses_a", rightId: "ses_b" }), "NOT_FOUND");
  });
});
