import { expect, it } from "vitest";
import { describeEachDatabase } from "../db/testing/test-databases";
import { runToCompletion } from "./run-to-completion";
import { allEvents } from "./testing/canonical-graph";
import { linearSpec, queueRun } from "./testing/engine-fixtures";
import { createTestProvider } from "./testing/test-provider";

const FAST = { retryBaseMs: 5, retryMaxMs: 20 };

describeEachDatabase("run limits", (open) => {
  it("retries a step that fails twice, then succeeds (two run.step.attempt.failed events)", async () => {
    const { database } = await open();
    const run = await queueRun(database, linearSpec([{ id: "flaky", directive: { failTimes: 2 } }], { stepRetries: 2 }));
    const done = await runToCompletion(database, run.id, { providers: { scripted: createTestProvider() }, ...FAST });
    expect(done.status).toBe("succeeded");
    const failures = (await allEvents(database, run.id)).filter((event) => event.type === "run.step.attempt.failed");
    expect(failures.map((event) => event.payload)).toEqual([
      expect.objectContaining({ node_id: "flaky", attempt: 1, max_attempts: 3, code: "provider_error", retry_in_ms: 5 }),
      expect.objectContaining({ node_id: "flaky", attempt: 2, max_attempts: 3, code: "provider_error", retry_in_ms: 10 }),
    ]);
    const loops = await database.client.session.count({ where: { runId: run.id, lineageKind: "op_session_loop" } });
    expect(loops).toBe(1);
  });

  it("fails the run with the node id when every attempt fails", async () => {
    const { database } = await open();
    const run = await queueRun(database, linearSpec([{ id: "broken", directive: { failTimes: 99 } }], { stepRetries: 2 }));
    const failed = await runToCompletion(database, run.id, { providers: { scripted: createTestProvider() }, ...FAST });
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatchObject({ code: "provider_error", node_id: "broken" });
    expect(failed.error?.message).toContain("(node 'broken') failed after 3 attempt(s)");
    const events = await allEvents(database, run.id);
    expect(events.filter((event) => event.type === "run.step.attempt.failed")).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ type: "run.execution.failed", payload: { node_id: "broken" } });
    expect(await database.client.checkpoint.count({ where: { runId: run.id } })).toBe(1);
  });

  it("aborts a step that exceeds its timeout", async () => {
    const { database } = await open();
    const run = await queueRun(database, linearSpec([{ id: "slow", directive: { delayMs: 5_000 } }], { stepTimeoutMs: 150, stepRetries: 1 }));
    const started = Date.now();
    const failed = await runToCompletion(database, run.id, { providers: { scripted: createTestProvider() }, ...FAST });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatchObject({ code: "step_timeout", node_id: "slow" });
    const attempts = (await allEvents(database, run.id)).filter((event) => event.type === "run.step.attempt.failed");
    expect(attempts.map((event) => event.payload.code)).toEqual(["step_timeout", "step_timeout"]);
  });

  it("fails the run after the step that crosses the run's token budget (that step is committed)", async () => {
    const { database } = await open();
    const spec = linearSpec([
      { id: "first", directive: { usage: [10, 5] } },
      { id: "second", directive: { usage: [10, 5] } },
      { id: "third", directive: { usage: [10, 5] } },
    ]);
    const run = await queueRun(database, spec, { tokenBudget: 20 });
    const failed = await runToCompletion(database, run.id, { providers: { scripted: createTestProvider() } });
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatchObject({ code: "budget_exceeded", node_id: "second" });
    expect(failed.tokensUsed).toBe(30);
    expect(await database.client.checkpoint.count({ where: { runId: run.id } })).toBe(3);
  });

  it("stops at the plan's step limit", async () => {
    const { database } = await open();
    const run = await queueRun(database, linearSpec([{ id: "a", directive: {} }, { id: "b", directive: {} }], { maxSteps: 2 }));
    const failed = await runToCompletion(database, run.id, { providers: { scripted: createTestProvider() } });
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatchObject({ code: "max_steps_exceeded", node_id: "b" });
  });
});
