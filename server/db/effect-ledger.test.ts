import { expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import { listEffects, markDispatched, prepareEffect, recoverAfterCrash, settleEffect } from "./effect-ledger";
import { seedRun } from "./testing/fixtures";
import { describeEachDatabase } from "./testing/test-databases";

describeEachDatabase("effect ledger", (open) => {
  it("moves prepared -> dispatched -> succeeded and deduplicates by (run, key)", async () => {
    const { database } = await open();
    const run = await seedRun(database);
    const first = await prepareEffect(database, { runId: run.id, idempotencyKey: "send-1", tool: "send_email", args: { to: "a@b.c" }, idempotent: false });
    expect(first.created).toBe(true);
    expect(first.effect).toMatchObject({ status: "prepared", tool: "send_email", args: { to: "a@b.c" }, idempotent: false });
    const dispatched = await markDispatched(database, first.effect.id);
    expect(dispatched.status).toBe("dispatched");
    const settled = await settleEffect(database, first.effect.id, { status: "succeeded", result: { messageId: "m1" } });
    expect(settled).toMatchObject({ status: "succeeded", result: { messageId: "m1" } });
    const again = await prepareEffect(database, { runId: run.id, idempotencyKey: "send-1", tool: "send_email", args: {}, idempotent: false });
    expect(again).toEqual({ effect: settled, created: false });
    const otherRun = await seedRun(database);
    expect((await prepareEffect(database, { runId: otherRun.id, idempotencyKey: "send-1", tool: "t", args: null, idempotent: true })).created).toBe(true);
    const racing = await Promise.all(
      Array.from({ length: 4 }, () => prepareEffect(database, { runId: run.id, idempotencyKey: "race", tool: "t", args: 1, idempotent: true })),
    );
    expect(new Set(racing.map((result) => result.effect.id)).size).toBe(1);
    expect(racing.filter((result) => result.created)).toHaveLength(1);
  });

  it("refuses out-of-order moves with the expected and found status", async () => {
    const { database } = await open();
    const run = await seedRun(database);
    const { effect } = await prepareEffect(database, { runId: run.id, idempotencyKey: "k", tool: "t", args: {}, idempotent: true });
    const early = await settleEffect(database, effect.id, { status: "failed", error: "x" }).catch((error: unknown) => error);
    expect(isRathError(early, "conflict")).toBe(true);
    expect((early as Error).message).toContain("expected status dispatched or ambiguous, found prepared");
    await markDispatched(database, effect.id);
    const twice = await markDispatched(database, effect.id).catch((error: unknown) => error);
    expect((twice as Error).message).toContain("expected status prepared, found dispatched");
    const failed = await settleEffect(database, effect.id, { status: "failed", error: "timeout" });
    expect(failed).toMatchObject({ status: "failed", error: "timeout" });
    await expect(markDispatched(database, "eff_missing")).rejects.toThrow(/effect eff_missing not found/);
  });

  it("recovers after a crash: idempotent dispatched -> prepared, non-idempotent -> ambiguous, run needs review", async () => {
    const { database } = await open();
    const run = await seedRun(database);
    const make = async (key: string, idempotent: boolean, dispatch: boolean) => {
      const { effect } = await prepareEffect(database, { runId: run.id, idempotencyKey: key, tool: "t", args: { key }, idempotent });
      return dispatch ? markDispatched(database, effect.id) : effect;
    };
    const read = await make("read", true, true);
    const write = await make("write", false, true);
    const waiting = await make("waiting", false, false);
    const done = await make("done", false, true);
    await settleEffect(database, done.id, { status: "succeeded", result: 1 });

    const report = await recoverAfterCrash(database, run.id);
    expect(report).toEqual({ reprepared: [read.id], ambiguous: [write.id], needsReview: true });
    const byId = new Map((await listEffects(database, run.id)).map((effect) => [effect.id, effect]));
    expect(byId.get(read.id)).toMatchObject({ status: "prepared", dispatchedAt: null });
    expect(byId.get(write.id)?.status).toBe("ambiguous");
    expect(byId.get(waiting.id)?.status).toBe("prepared");
    expect(byId.get(done.id)?.status).toBe("succeeded");

    expect(await recoverAfterCrash(database, run.id)).toEqual({ reprepared: [], ambiguous: [], needsReview: true });
    await settleEffect(database, write.id, { status: "succeeded", result: "checked by a person" });
    expect(await recoverAfterCrash(database, run.id)).toEqual({ reprepared: [], ambiguous: [], needsReview: false });
  });

  it("needs no review when only idempotent calls were in flight", async () => {
    const { database } = await open();
    const run = await seedRun(database);
    const { effect } = await prepareEffect(database, { runId: run.id, idempotencyKey: "k", tool: "t", args: {}, idempotent: true });
    await markDispatched(database, effect.id);
    expect(await recoverAfterCrash(database, run.id)).toEqual({ reprepared: [effect.id], ambiguous: [], needsReview: false });
  });
});
