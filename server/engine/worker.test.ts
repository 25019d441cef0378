import { expect, it } from "vitest";
import type { RunRecord } from "../db/run-record";
import { getRun, requestCancel } from "../db/run-store";
import { describeEachDatabase } from "../db/testing/test-databases";
import { allEvents } from "./testing/canonical-graph";
import { linearSpec, queueRun } from "./testing/engine-fixtures";
import { waitFor } from "./testing/spawn-worker";
import { createTestProvider } from "./testing/test-provider";
import { createWorker } from "./worker";

describeEachDatabase("worker", (open) => {
  it("two workers execute every queued run exactly once, highest priority first", async () => {
    const { database, openAnother } = await open();
    const second = await openAnother();
    const spec = linearSpec([{ id: "a", directive: { usage: [1, 1] } }]);
    const runs: RunRecord[] = [];
    for (let index = 0; index < 4; index += 1) runs.push(await queueRun(database, spec, { priority: index === 3 ? 10 : 0 }));
    const workers = [database, second].map((db, index) =>
      createWorker({ db, workerId: `w${index}`, leaseMs: 5_000, pollMs: 20, providers: { scripted: createTestProvider() } }),
    );
    workers.forEach((worker) => worker.start());
    try {
      await waitFor(async () => {
        const statuses = await Promise.all(runs.map(async (run) => (await getRun(database, run.id))?.status));
        return statuses.every((status) => status === "succeeded");
      }, 30_000, "every run to succeed");
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
    for (const run of runs) {
      const claims = (await allEvents(database, run.id)).filter((event) => event.type === "run.claimed");
      expect(claims).toHaveLength(1);
    }
    // With two claim loops the first two claims race (each statement's clock is read before the other's row lock
    // decides), so "first" means: the urgent run is in the first pair of claims, before any worker came back for more.
    const claims = await database.client.runEvent.findMany({ where: { type: "run.claimed" }, orderBy: { at: "asc" } });
    expect(claims).toHaveLength(4);
    const firstPair = claims.slice(0, 2).map((claim) => claim.runId);
    expect(firstPair).toContain(runs[3]?.id);
  }, 40_000);

  it("cancels a running run between steps when a cancel is requested", async () => {
    const { database } = await open();
    const run = await queueRun(database, linearSpec([{ id: "slow", directive: { delayMs: 400 } }, { id: "never", directive: {} }]));
    const worker = createWorker({ db: database, leaseMs: 5_000, heartbeatMs: 100, pollMs: 20, providers: { scripted: createTestProvider() } });
    worker.start();
    try {
      await waitFor(async () => (await database.client.checkpoint.count({ where: { runId: run.id } })) >= 1, 10_000, "the first checkpoint");
      expect((await requestCancel(database, run.id)).cancelRequested).toBe(true);
      await waitFor(async () => (await getRun(database, run.id))?.status === "cancelled", 10_000, "the run to be cancelled");
    } finally {
      await worker.stop();
    }
    const sessions = await database.client.session.findMany({ where: { runId: run.id, nodeId: "never" } });
    expect(sessions).toHaveLength(0);
  }, 20_000);

  it("a stopping worker puts its run back in the queue before the next step", async () => {
    const { database } = await open();
    const run = await queueRun(database, linearSpec([{ id: "slow", directive: { delayMs: 300 } }, { id: "next", directive: {} }]));
    const worker = createWorker({ db: database, leaseMs: 5_000, pollMs: 20, providers: { scripted: createTestProvider() } });
    worker.start();
    await waitFor(async () => (await database.client.checkpoint.count({ where: { runId: run.id } })) >= 1, 10_000, "the first checkpoint");
    await worker.stop();
    const stopped = await getRun(database, run.id);
    expect(stopped?.status).toBe("queued");
    expect(stopped?.leaseOwner).toBeNull();
  }, 20_000);
});
