/**
 * A restarted embedded studio resumes the runs its previous process left running at once, instead of waiting out
 * their lease. No wall-clock assertion: the orphan is requeued while its lease is still far in the future.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { claimNext } from "../db/run-lease";
import { getRun } from "../db/run-store";
import { describeEachDatabase } from "../db/testing/test-databases";
import { embeddedWorkerIdentity, leaseMsFrom } from "./embedded-worker";
import { allEvents } from "./testing/canonical-graph";
import { linearSpec, queueRun } from "./testing/engine-fixtures";
import { waitFor } from "./testing/spawn-worker";
import { createTestProvider } from "./testing/test-provider";
import { createWorker } from "./worker";

/** The pid of a process that has exited (so it is certainly not alive). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  return child.pid;
}

describe("embedded worker identity and lease length", () => {
  it("recognises its previous process's runs: same database file and machine, a pid that is gone", () => {
    const alive = new Set([100, 200]);
    const now = embeddedWorkerIdentity("/data/studio.db", { host: "box", pid: 200, suffix: "bbbb", alive: (pid) => alive.has(pid) });
    expect(now.workerId).toBe("embedded:box:/data/studio.db:200:bbbb");
    expect(now.ownerPrefix).toBe("embedded:box:/data/studio.db:");
    expect(now.isGone("embedded:box:/data/studio.db:300:aaaa")).toBe(true);
    expect(now.isGone("embedded:box:/data/studio.db:300:aaaa#1")).toBe(true);
    expect(now.isGone("embedded:box:/data/studio.db:100:aaaa")).toBe(false);
    expect(now.isGone("embedded:box:/data/studio.db:200:cccc")).toBe(false);
  });

  it("takes the lease length from RATH_LEASE_MS (default 30 s) and refuses anything but a positive whole number", () => {
    expect(leaseMsFrom({})).toBe(30_000);
    expect(leaseMsFrom({ RATH_LEASE_MS: "5000" })).toBe(5_000);
    for (const bad of ["0", "-1", "1.5", "soon"]) expect(() => leaseMsFrom({ RATH_LEASE_MS: bad })).toThrow(/RATH_LEASE_MS must be a positive whole number/);
  });
});

describeEachDatabase("a restarted embedded studio", (open) => {
  it("requeues and finishes the run its previous process left running, before that run's lease expires", async () => {
    const { database } = await open();
    const run = await queueRun(database, linearSpec([{ id: "a", directive: { usage: [1, 1] } }]));
    const previous = embeddedWorkerIdentity("/data/studio.db", { host: "box", pid: deadPid(), suffix: "old0" });
    // The previous process claimed it with a ten-minute lease, then died.
    const claim = await claimNext(database, previous.workerId, 600_000);
    expect(claim?.run.id).toBe(run.id);
    const leaseExpiresAt = (await getRun(database, run.id))?.leaseExpiresAt as Date;

    const current = embeddedWorkerIdentity("/data/studio.db", { host: "box", pid: process.pid, suffix: "new0" });
    const worker = createWorker({
      db: database,
      workerId: current.workerId,
      leaseMs: 600_000,
      pollMs: 20,
      providers: { scripted: createTestProvider() },
      reclaimOrphans: { ownerPrefix: current.ownerPrefix, isGone: current.isGone },
    });
    worker.start();
    try {
      await waitFor(async () => (await getRun(database, run.id))?.status === "succeeded", 30_000, "the orphaned run to finish");
    } finally {
      await worker.stop();
    }
    const events = await allEvents(database, run.id);
    const released = events.find((event) => event.type === "run.state.changed" && (event.payload as { reason?: string }).reason === "lease holder gone");
    expect(released).toBeDefined();
    expect(released!.at.getTime()).toBeLessThan(leaseExpiresAt.getTime());
    const claims = events.filter((event) => event.type === "run.claimed").map((event) => (event.payload as { worker_id?: string }).worker_id);
    expect(claims).toEqual([previous.workerId, current.workerId]);
  }, 40_000);
});
