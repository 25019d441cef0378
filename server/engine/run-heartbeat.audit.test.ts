/**
 * What the heartbeat does while a step is running (not only between steps): a cancel requested mid-step aborts
 * the step at the next beat and the run ends cancelled without committing it; a lease taken over by another
 * worker mid-step stops the stale execution at the next beat, and nothing it produced is stored.
 */
import { expect, it } from "vitest";
import { claimNext, expireLeases } from "../db/run-lease";
import { getRun, requestCancel } from "../db/run-store";
import { describeEachDatabase } from "../db/testing/test-databases";
import { createProviderResolver } from "./provider-resolver";
import { executeClaimedRun } from "./run-executor";
import { allEvents } from "./testing/canonical-graph";
import { linearSpec, queueRun } from "./testing/engine-fixtures";
import { waitFor } from "./testing/spawn-worker";
import { createTestProvider } from "./testing/test-provider";

const LONG_STEP_MS = 8_000;

describeEachDatabase("heartbeat during a step", (open) => {
  it("a cancel requested mid-step aborts the step at the next heartbeat; the run is cancelled and the step not committed", async () => {
    const { database } = await open();
    const run = await queueRun(database, linearSpec([{ id: "slow", directive: { delayMs: LONG_STEP_MS } }]));
    const claim = await claimNext(database, "worker-a", 30_000);
    expect(claim?.run.id).toBe(run.id);
    const resolveProvider = createProviderResolver({ providers: { scripted: createTestProvider() } });
    const started = Date.now();
    const execution = executeClaimedRun(database, claim!, { resolveProvider, leaseMs: 30_000, heartbeatMs: 100 });
    await waitFor(async () => (await database.client.checkpoint.count({ where: { runId: run.id } })) === 1, 10_000, "the input step's checkpoint");
    expect((await requestCancel(database, run.id)).status).toBe("running");

    const outcome = await execution;
    expect(Date.now() - started).toBeLessThan(LONG_STEP_MS - 2_000);
    expect(outcome.status).toBe("cancelled");
    const cancelled = await getRun(database, run.id);
    expect(cancelled).toMatchObject({ status: "cancelled", leaseOwner: null });
    expect(await database.client.checkpoint.count({ where: { runId: run.id } })).toBe(1);
    expect(await database.client.session.count({ where: { runId: run.id, nodeId: "slow" } })).toBe(0);
    const types = (await allEvents(database, run.id)).map((event) => event.type);
    expect(types).not.toContain("run.execution.completed");
    expect(types.at(-1)).toBe("run.state.changed");
  }, 30_000);

  it("a lease lost mid-step stops the stale execution at the next heartbeat, writing nothing", async () => {
    const { database } = await open();
    const run = await queueRun(database, linearSpec([{ id: "slow", directive: { delayMs: LONG_STEP_MS } }]));
    const claimA = await claimNext(database, "worker-a", 400);
    const resolveProvider = createProviderResolver({ providers: { scripted: createTestProvider() } });
    const started = Date.now();
    // A heartbeat period longer than the lease: worker A looks stalled, its lease expires mid-step.
    const executionA = executeClaimedRun(database, claimA!, { resolveProvider, leaseMs: 400, heartbeatMs: 1_000 });
    await waitFor(async () => (await database.client.checkpoint.count({ where: { runId: run.id } })) === 1, 10_000, "the input step's checkpoint");
    await waitFor(async () => (await expireLeases(database)).length === 1, 5_000, "worker A's lease to expire");
    const claimB = await claimNext(database, "worker-b", 60_000);
    expect(claimB?.fencingToken).toBe(2);

    const outcomeA = await executionA;
    expect(Date.now() - started).toBeLessThan(LONG_STEP_MS - 2_000);
    expect(outcomeA.status).toBe("abandoned");
    const current = await getRun(database, run.id);
    expect(current).toMatchObject({ status: "running", leaseOwner: "worker-b", fencingToken: 2 });
    expect(await database.client.checkpoint.count({ where: { runId: run.id } })).toBe(1);
    expect(await database.client.session.count({ where: { runId: run.id, nodeId: "slow" } })).toBe(0);
  }, 30_000);
});
