import { expect, it } from "vitest";
import { listEffects, recoverAfterCrash } from "../db/effect-ledger";
import { describeEachDatabase } from "../db/testing/test-databases";
import { effectKey, ledgerEffectHooks } from "./ledger-effect-hooks";
import { linearSpec, queueRun } from "./testing/engine-fixtures";

const CALL = { callId: "call_1", tool: "write_workspace_file", args: { path: "a.txt", content: "x" }, idempotent: true };

describeEachDatabase("ledger effect hooks", (open) => {
  it("records prepared -> dispatched -> succeeded, then replays the settled result (same call id, or new id with the same tool and arguments)", async () => {
    const { database } = await open();
    const run = await queueRun(database, linearSpec([{ id: "a", directive: {} }]));
    const scope = { runId: run.id, nodeId: "a", stepSeq: 2 };
    const first = ledgerEffectHooks(database, scope);
    expect(await first.prepare(CALL)).toEqual({});
    await first.dispatched("call_1");
    await first.settled("call_1", { ok: true, content: '{"written":true}' });
    expect(first.settledCount()).toBe(1);
    const [effect] = await listEffects(database, run.id);
    expect(effect).toMatchObject({ status: "succeeded", idempotencyKey: effectKey(scope, "call_1"), result: '{"written":true}' });

    const again = ledgerEffectHooks(database, scope);
    expect(await again.prepare(CALL)).toEqual({ replayContent: '{"written":true}' });
    expect(await listEffects(database, run.id)).toHaveLength(1);

    const newIds = ledgerEffectHooks(database, scope);
    expect(await newIds.prepare({ ...CALL, callId: "call_new" })).toEqual({ replayContent: '{"written":true}' });
    expect(await newIds.prepare({ ...CALL, callId: "call_newer" })).toEqual({});
    expect(await listEffects(database, run.id)).toHaveLength(2);

    const otherStep = ledgerEffectHooks(database, { ...scope, stepSeq: 3 });
    expect(await otherStep.prepare(CALL)).toEqual({});
    expect(await listEffects(database, run.id)).toHaveLength(3);
  });

  it("replays a failed call's content, re-dispatches a re-prepared idempotent call and refuses one still in flight", async () => {
    const { database } = await open();
    const run = await queueRun(database, linearSpec([{ id: "a", directive: {} }]));
    const scope = { runId: run.id, nodeId: "a", stepSeq: 2 };
    const failing = ledgerEffectHooks(database, scope);
    await failing.prepare({ ...CALL, callId: "bad", args: { path: "b.txt", content: "y" } });
    await failing.dispatched("bad");
    await failing.settled("bad", { ok: false, content: '{"ok":false,"error_kind":"os_error"}' });
    expect(await ledgerEffectHooks(database, scope).prepare({ ...CALL, callId: "bad", args: { path: "b.txt", content: "y" } })).toEqual({ replayContent: '{"ok":false,"error_kind":"os_error"}' });

    const crashed = ledgerEffectHooks(database, scope);
    await crashed.prepare(CALL);
    await crashed.dispatched("call_1");
    await expect(ledgerEffectHooks(database, scope, { inFlightWaitMs: 150 }).prepare(CALL)).rejects.toThrow(/is dispatched in the effect ledger/);
    const report = await recoverAfterCrash(database, run.id);
    expect(report.reprepared).toHaveLength(1);
    const resumed = ledgerEffectHooks(database, scope);
    expect(await resumed.prepare(CALL)).toEqual({});
    await resumed.dispatched("call_1");
    await resumed.settled("call_1", { ok: true, content: "done" });
    expect((await listEffects(database, run.id)).map((effect) => effect.status)).toEqual(["failed", "succeeded"]);
  });

  it("a retry waits for a call its timed-out attempt still runs, then replays its result", async () => {
    const { database } = await open();
    const run = await queueRun(database, linearSpec([{ id: "a", directive: {} }]));
    const scope = { runId: run.id, nodeId: "a", stepSeq: 2 };
    const zombie = ledgerEffectHooks(database, scope);
    await zombie.prepare(CALL);
    await zombie.dispatched("call_1");
    const retry = ledgerEffectHooks(database, scope, { inFlightWaitMs: 3_000 }).prepare(CALL);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await zombie.settled("call_1", { ok: true, content: "late" });
    expect(await retry).toEqual({ replayContent: "late" });
  });
});
