import { expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import { commitStep } from "./run-commit";
import { eventsPage } from "./run-events";
import { claimNext, claimRun, expireLeases, heartbeat } from "./run-lease";
import { getRun, requestCancel, transition } from "./run-store";
import { PLAN_HASH, rootSession, seedRun, seedWorkflow, userChunk } from "./testing/fixtures";
import { describeEachDatabase } from "./testing/test-databases";

const LEASE_MS = 30_000;

describeEachDatabase("leases", (open, provider) => {
  it("claimRun takes only the named run: 8 concurrent claims, one winner; the run ahead of it stays queued", async () => {
    const { database } = await open();
    const ids = await seedWorkflow(database);
    const ahead = await seedRun(database, { ...ids, priority: 9 });
    const target = await seedRun(database, ids);
    const claims = await Promise.all(Array.from({ length: 8 }, (_, index) => claimRun(database, target.id, `worker-${index}`, LEASE_MS)));
    const winners = claims.filter((claim) => claim !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]?.run).toMatchObject({ id: target.id, status: "running", fencingToken: 1, version: 2 });
    expect(winners[0]?.run.startedAt).not.toBeNull();
    expect((await getRun(database, ahead.id))?.status).toBe("queued");
    expect((await eventsPage(database, target.id)).filter((event) => event.type === "run.claimed")).toHaveLength(1);
    expect(await claimRun(database, target.id, "late", LEASE_MS)).toBeNull();
    await expect(claimRun(database, "run_missing", "w", LEASE_MS)).rejects.toThrow(/run run_missing not found/);
  });

  it("returns null on an empty queue", async () => {
    const { database } = await open();
    expect(await claimNext(database, "worker-a", LEASE_MS)).toBeNull();
  });

  it("claims by priority, then FIFO, and records run.claimed with the fencing token", async () => {
    const { database } = await open();
    const ids = await seedWorkflow(database);
    const low1 = await seedRun(database, { ...ids, priority: 0 });
    const high = await seedRun(database, { ...ids, priority: 5 });
    const low2 = await seedRun(database, { ...ids, priority: 0 });
    const now = new Date("2030-01-01T00:00:00.000Z");
    const order: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const claim = await claimNext(database, "worker-a", LEASE_MS, now);
      expect(claim).not.toBeNull();
      order.push(claim?.run.id ?? "");
      expect(claim?.fencingToken).toBe(1);
      expect(claim?.run).toMatchObject({ status: "running", leaseOwner: "worker-a", version: 2, fencingToken: 1 });
      expect(claim?.run.leaseExpiresAt?.toISOString()).toBe("2030-01-01T00:00:30.000Z");
    }
    expect(order).toEqual([high.id, low1.id, low2.id]);
    expect(await claimNext(database, "worker-a", LEASE_MS)).toBeNull();
    const events = await eventsPage(database, high.id);
    expect(events.map((event) => [event.seq, event.type])).toEqual([
      [1, "run.created"],
      [2, "run.state.changed"],
      [3, "run.claimed"],
    ]);
    expect(events[2]?.payload).toEqual({ worker_id: "worker-a", fencing_token: 1 });
  });

  it("gives one queued run to exactly one of 8 concurrent claimers (one handle)", async () => {
    const { database } = await open();
    const run = await seedRun(database);
    const claims = await Promise.all(Array.from({ length: 8 }, (_, index) => claimNext(database, `worker-${index}`, LEASE_MS)));
    const winners = claims.filter((claim) => claim !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]?.run.id).toBe(run.id);
    const claimedEvents = (await eventsPage(database, run.id)).filter((event) => event.type === "run.claimed");
    expect(claimedEvents).toHaveLength(1);
  });

  const separate = provider === "postgresql" ? "8 separate PostgreSQL pools" : "8 SQLite handles (one shared connection per file)";
  it(`gives one queued run to exactly one of 8 claimers on ${separate}`, async () => {
    const { database, openAnother } = await open();
    const run = await seedRun(database);
    const handles = await Promise.all(Array.from({ length: 8 }, () => openAnother({ poolSize: 2 })));
    const claims = await Promise.all(handles.map((handle, index) => claimNext(handle, `worker-${index}`, LEASE_MS)));
    const winners = claims.filter((claim) => claim !== null);
    expect(winners).toHaveLength(1);
    expect((await getRun(database, run.id))?.leaseOwner).toBe(winners[0]?.run.leaseOwner);
  });

  it("hands 8 queued runs to 8 concurrent claimers, one each", async () => {
    const { database, openAnother } = await open();
    const ids = await seedWorkflow(database);
    const runs = [];
    for (let index = 0; index < 8; index += 1) runs.push(await seedRun(database, ids));
    const handles = await Promise.all(Array.from({ length: 8 }, () => openAnother({ poolSize: 2 })));
    const claims = await Promise.all(handles.map((handle, index) => claimNext(handle, `worker-${index}`, LEASE_MS)));
    expect(claims.every((claim) => claim !== null)).toBe(true);
    expect(new Set(claims.map((claim) => claim?.run.id))).toEqual(new Set(runs.map((run) => run.id)));
  });

  it("fences a worker whose lease expired: B reclaims, A's heartbeat and commit are refused and write nothing", async () => {
    const { database } = await open();
    const run = await seedRun(database);
    const start = new Date("2030-01-01T00:00:00.000Z");
    const claimA = await claimNext(database, "worker-a", 1_000, start);
    expect(claimA?.fencingToken).toBe(1);

    const later = new Date(start.getTime() + 5_000);
    const expired = await expireLeases(database, later);
    expect(expired.map((item) => [item.id, item.status, item.leaseOwner])).toEqual([[run.id, "queued", null]]);
    expect(await expireLeases(database, later)).toEqual([]);

    const claimB = await claimNext(database, "worker-b", LEASE_MS, later);
    expect(claimB?.run.id).toBe(run.id);
    expect(claimB?.fencingToken).toBe(2);
    const before = await getRun(database, run.id);
    const eventsBefore = await eventsPage(database, run.id);

    const heartbeatError = await heartbeat(database, run.id, 1, LEASE_MS).catch((error: unknown) => error);
    expect(isRathError(heartbeatError, "conflict")).toBe(true);
    const commitError = await commitStep(database, run.id, 1, {
      sessions: [rootSession("s-stale")],
      chunks: [userChunk("s-stale", 0)],
      events: [{ type: "step.done", payload: {} }],
      checkpoint: { seq: 1, planHash: PLAN_HASH, state: {}, nextNodes: [] },
      tokensUsed: 10,
    }).catch((error: unknown) => error);
    expect(isRathError(commitError, "conflict")).toBe(true);
    expect((commitError as Error).message).toContain("expected the current token 2, found 1");
    expect(await getRun(database, run.id)).toEqual(before);
    expect(await eventsPage(database, run.id)).toEqual(eventsBefore);
    expect(await database.client.session.count({ where: { runId: run.id } })).toBe(0);
    expect(await database.client.checkpoint.count({ where: { runId: run.id } })).toBe(0);

    const good = await commitStep(database, run.id, 2, { checkpoint: { seq: 1, planHash: PLAN_HASH, state: {}, nextNodes: [] } });
    expect(good.checkpoint?.seq).toBe(1);
    const types = eventsBefore.map((event) => event.type);
    expect(types).toEqual([
      "run.created",
      "run.state.changed",
      "run.claimed",
      "run.lease.expired",
      "run.state.changed",
      "run.state.changed",
      "run.claimed",
    ]);
    expect(eventsBefore[3]?.payload).toEqual({ worker_id: "worker-a", fencing_token: 1 });
  });

  it("renews a lease with the current token and reports a cancel request", async () => {
    const { database } = await open();
    await seedRun(database);
    const start = new Date("2030-01-01T00:00:00.000Z");
    const claim = await claimNext(database, "worker-a", 1_000, start);
    if (claim === null) throw new Error("expected a claim");
    const renewed = await heartbeat(database, claim.run.id, claim.fencingToken, 10_000, new Date(start.getTime() + 900));
    expect(renewed).toEqual({ leaseExpiresAt: new Date(start.getTime() + 10_900), cancelRequested: false });
    expect(await expireLeases(database, new Date(start.getTime() + 5_000))).toEqual([]);
    await requestCancel(database, claim.run.id);
    expect((await heartbeat(database, claim.run.id, claim.fencingToken, 10_000)).cancelRequested).toBe(true);
  });

  it("cancels instead of requeueing an expired run whose cancel was requested", async () => {
    const { database } = await open();
    await seedRun(database);
    const start = new Date("2030-01-01T00:00:00.000Z");
    const claim = await claimNext(database, "worker-a", 1_000, start);
    if (claim === null) throw new Error("expected a claim");
    await requestCancel(database, claim.run.id);
    const [expired] = await expireLeases(database, new Date(start.getTime() + 2_000));
    expect(expired).toMatchObject({ status: "cancelled", leaseOwner: null });
    expect(await claimNext(database, "worker-b", LEASE_MS)).toBeNull();
  });

  it("refuses a heartbeat for a run that is no longer running", async () => {
    const { database } = await open();
    await seedRun(database);
    const claim = await claimNext(database, "worker-a", LEASE_MS);
    if (claim === null) throw new Error("expected a claim");
    await transition(database, claim.run.id, claim.run.version, "succeeded", { fencingToken: claim.fencingToken });
    const error = await heartbeat(database, claim.run.id, claim.fencingToken, LEASE_MS).catch((caught: unknown) => caught);
    expect(isRathError(error, "conflict")).toBe(true);
    expect((error as Error).message).toContain("is succeeded, not running");
  });
});
