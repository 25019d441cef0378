import { expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import { listPendingInterrupts } from "../db/interrupt-store";
import { expireDeadlines } from "../db/run-lease";
import { getRun, transition } from "../db/run-store";
import { describeEachDatabase } from "../db/testing/test-databases";
import { runTimeout, settingsOfSpec } from "./run-deadline";
import { submitDecision } from "./run-interrupts";
import { runToCompletion } from "./run-to-completion";
import type { WorkflowSpec } from "../../runtime/workflow-spec/workflow-spec";
import { allEvents } from "./testing/canonical-graph";
import { linearSpec, queueRun } from "./testing/engine-fixtures";
import { createTestProvider } from "./testing/test-provider";
import { createWorker } from "./worker";

const providers = { scripted: createTestProvider() };

/** drafter -> review (approval) -> output, the approval expiring `timeoutMs` after it is asked. */
function approvalSpec(approvalTimeoutMs?: number): WorkflowSpec {
  const spec = linearSpec([{ id: "drafter", directive: {} }], {}, { approvalAfter: "drafter" });
  const review = spec.nodes.find((node) => node.id === "review");
  if (review?.type === "approval" && approvalTimeoutMs !== undefined) review.config.timeoutMs = approvalTimeoutMs;
  return spec;
}

function stateChanges(events: Awaited<ReturnType<typeof allEvents>>): string[] {
  return events.filter((event) => event.type === "run.state.changed").map((event) => `${String(event.payload.from)}->${String(event.payload.to)}`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

it("takes a run's own timeout before the spec's runTimeoutMs", () => {
  expect(runTimeout(500, { runTimeoutMs: 9_000 })).toEqual({ timeoutMs: 500 });
  expect(runTimeout(undefined, { runTimeoutMs: 9_000 })).toEqual({ timeoutMs: 9_000 });
  expect(runTimeout(undefined, undefined)).toEqual({});
  expect(settingsOfSpec({ settings: { runTimeoutMs: 42 } })).toEqual({ runTimeoutMs: 42 });
  expect(settingsOfSpec("not a spec")).toBeUndefined();
});

describeEachDatabase("run deadlines", (open) => {
  it("times out a running run mid-step when its deadline (settings.runTimeoutMs) passes; the slow step is not committed", async () => {
    const { database } = await open();
    const run = await queueRun(database, linearSpec([{ id: "slow", directive: { delayMs: 8_000 } }], { runTimeoutMs: 1_200 }));
    expect(run.deadlineAt?.getTime()).toBe(run.createdAt.getTime() + 1_200);
    const started = Date.now();
    const ended = await runToCompletion(database, run.id, { providers, heartbeatMs: 50 });
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(ended.status).toBe("timed_out");
    expect(ended.error).toMatchObject({ code: "run_timeout", node_id: "slow", deadline_at: run.deadlineAt?.toISOString() });
    expect(ended.finishedAt).not.toBeNull();
    const events = await allEvents(database, run.id);
    expect(stateChanges(events)).toEqual(["queued->running", "running->timed_out"]);
    expect(events.at(-1)).toMatchObject({ type: "run.execution.timed_out", payload: { code: "run_timeout", node_id: "slow" } });
    // Only the Input step was committed; the aborted step left no checkpoint and no attempt failure.
    expect(await database.client.checkpoint.count({ where: { runId: run.id } })).toBe(1);
    expect(events.some((event) => event.type === "run.step.attempt.failed")).toBe(false);
  });

  it("aborts the step at the deadline itself, without waiting for a heartbeat", async () => {
    const { database } = await open();
    const spec = linearSpec([
      { id: "first", directive: { delayMs: 8_000 } },
      { id: "second", directive: {} },
    ]);
    const run = await queueRun(database, spec, { timeoutMs: 1_200 });
    const started = Date.now();
    const ended = await runToCompletion(database, run.id, { providers, heartbeatMs: 60_000 });
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(ended.status).toBe("timed_out");
    expect(ended.error).toMatchObject({ code: "run_timeout", node_id: "first" });
    expect(ended.output).toBeNull();
    expect(await database.client.checkpoint.count({ where: { runId: run.id } })).toBe(1);
  });

  it("lets a run that finishes in time succeed, and the sweeper leaves it alone", async () => {
    const { database } = await open();
    const run = await queueRun(database, linearSpec([{ id: "quick", directive: {} }]), { timeoutMs: 60_000 });
    const done = await runToCompletion(database, run.id, { providers });
    expect(done.status).toBe("succeeded");
    expect(done.error).toBeNull();
    expect(done.deadlineAt?.getTime()).toBe(run.createdAt.getTime() + 60_000);
    expect(await expireDeadlines(database, new Date(Date.now() + 120_000))).toEqual([]);
    expect((await getRun(database, run.id))?.status).toBe("succeeded");
  });

  it("times out a queued run past its deadline without executing it (sweeper, and a worker that claims it anyway)", async () => {
    const { database } = await open();
    const swept = await queueRun(database, linearSpec([{ id: "never", directive: {} }]), { timeoutMs: 1_000 });
    const untouched = await queueRun(database, linearSpec([{ id: "later", directive: {} }]), { timeoutMs: 600_000 });
    const noDeadline = await queueRun(database, linearSpec([{ id: "free", directive: {} }]));
    const [timedOut, ...others] = await expireDeadlines(database, new Date(Date.now() + 5_000));
    expect(others).toEqual([]);
    expect(timedOut).toMatchObject({ id: swept.id, status: "timed_out", version: swept.version + 1, error: { code: "run_timeout" } });
    expect(timedOut?.finishedAt).not.toBeNull();
    const events = await allEvents(database, swept.id);
    expect(events.map((event) => event.type)).toEqual(["run.created", "run.state.changed", "run.execution.timed_out"]);
    expect(stateChanges(events)).toEqual(["queued->timed_out"]);
    expect(await database.client.checkpoint.count({ where: { runId: swept.id } })).toBe(0);
    expect((await getRun(database, untouched.id))?.status).toBe("queued");
    expect((await getRun(database, noDeadline.id))?.status).toBe("queued");
    // A second sweep (another process) finds nothing left to do.
    expect(await expireDeadlines(database, new Date(Date.now() + 5_000))).toEqual([]);

    const claimedLate = await queueRun(database, linearSpec([{ id: "late", directive: {} }]), { timeoutMs: 1 });
    await sleep(10);
    const ended = await runToCompletion(database, claimedLate.id, { providers });
    expect(ended.status).toBe("timed_out");
    expect(ended.error).toMatchObject({ code: "run_timeout" });
    expect(ended.error).not.toHaveProperty("node_id");
    expect(await database.client.checkpoint.count({ where: { runId: claimedLate.id } })).toBe(0);
    expect(await database.client.session.count({ where: { runId: claimedLate.id } })).toBe(0);
  });

  it("times out a waiting run whose approval nobody decided in time (sweeper); a late decision is refused", async () => {
    const { database } = await open();
    const run = await queueRun(database, approvalSpec(60_000));
    const waiting = await runToCompletion(database, run.id, { providers });
    expect(waiting.status).toBe("waiting");
    const [interrupt] = await listPendingInterrupts(database, { runId: run.id });
    const expiresAt = (interrupt?.request as { expiresAt?: string }).expiresAt;
    expect(expiresAt).toBeDefined();
    expect(waiting.waitDeadlineAt?.toISOString()).toBe(expiresAt);
    expect(waiting.deadlineAt).toBeNull();

    expect(await expireDeadlines(database, new Date(Date.parse(expiresAt as string) - 1))).toEqual([]);
    const after = new Date(Date.parse(expiresAt as string) + 1);
    const late = await submitDecision(database, interrupt?.id as string, { kind: "approve" }, after).catch((error: unknown) => error);
    expect(isRathError(late, "conflict") && late.message).toContain("expired");
    const [timedOut] = await expireDeadlines(database, after);
    expect(timedOut).toMatchObject({ id: run.id, status: "timed_out", waitDeadlineAt: null, error: { code: "approval_timeout", deadline_at: expiresAt } });
    const events = await allEvents(database, run.id);
    expect(stateChanges(events).slice(-1)).toEqual(["waiting->timed_out"]);
    expect(events.at(-1)).toMatchObject({ type: "run.execution.timed_out", payload: { code: "approval_timeout" } });
    expect(await database.client.checkpoint.count({ where: { runId: run.id } })).toBe(3);
  });

  it("times out a waiting run at its run deadline, and clears the approval expiry when a decision requeues it in time", async () => {
    const { database } = await open();
    const run = await queueRun(database, approvalSpec(), { timeoutMs: 30_000 });
    expect((await runToCompletion(database, run.id, { providers })).status).toBe("waiting");
    const [timedOut] = await expireDeadlines(database, new Date(Date.now() + 60_000));
    expect(timedOut).toMatchObject({ status: "timed_out", error: { code: "run_timeout" } });

    const decided = await queueRun(database, approvalSpec(60_000));
    expect((await runToCompletion(database, decided.id, { providers })).waitDeadlineAt).not.toBeNull();
    const [interrupt] = await listPendingInterrupts(database, { runId: decided.id });
    const requeued = await submitDecision(database, interrupt?.id as string, { kind: "approve" });
    expect(requeued).toMatchObject({ status: "queued", waitDeadlineAt: null });
    expect(await expireDeadlines(database, new Date(Date.now() + 120_000))).toEqual([]);
    expect((await runToCompletion(database, decided.id, { providers })).status).toBe("succeeded");
  });

  it("times out a waiting approval through a worker's periodic sweep", async () => {
    const { database } = await open();
    const run = await queueRun(database, approvalSpec(300));
    const worker = createWorker({ db: database, providers, pollMs: 20, sweepMs: 50, onError: () => undefined });
    worker.start();
    try {
      let status = run.status;
      for (let index = 0; index < 200 && status !== "timed_out"; index += 1) {
        await sleep(25);
        status = (await getRun(database, run.id))?.status ?? status;
      }
      expect(status).toBe("timed_out");
    } finally {
      await worker.stop();
    }
    const events = await allEvents(database, run.id);
    expect(stateChanges(events)).toEqual(["queued->running", "running->waiting", "waiting->timed_out"]);
    expect((await getRun(database, run.id))?.error).toMatchObject({ code: "approval_timeout" });
  });

  it("still refuses illegal transitions: nothing leaves timed_out, needs_review and running runs are not swept", async () => {
    const { database } = await open();
    const swept = await queueRun(database, linearSpec([{ id: "a", directive: {} }]), { timeoutMs: 1 });
    const [timedOut] = await expireDeadlines(database, new Date(Date.now() + 1_000));
    for (const to of ["queued", "running", "waiting", "succeeded", "failed", "cancelled", "needs_review", "timed_out"] as const) {
      const refused = await transition(database, swept.id, timedOut?.version as number, to).catch((error: unknown) => error);
      expect(isRathError(refused, "conflict"), to).toBe(true);
    }
    expect((await getRun(database, swept.id))?.status).toBe("timed_out");

    const reviewed = await queueRun(database, linearSpec([{ id: "b", directive: {} }]), { timeoutMs: 1 });
    await database.client.run.update({ where: { id: reviewed.id }, data: { status: "needs_review" } });
    const running = await queueRun(database, linearSpec([{ id: "c", directive: {} }]), { timeoutMs: 1 });
    await database.client.run.update({ where: { id: running.id }, data: { status: "running", leaseExpiresAt: new Date(Date.now() + 60_000) } });
    expect(await expireDeadlines(database, new Date(Date.now() + 1_000))).toEqual([]);
    const refused = await transition(database, reviewed.id, (await getRun(database, reviewed.id))?.version as number, "timed_out").catch((error: unknown) => error);
    expect(isRathError(refused, "conflict") && refused.message).toContain("needs_review -> timed_out");
  });
});
