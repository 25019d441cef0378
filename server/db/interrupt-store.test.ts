import { expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import { createInterrupt, decideInterrupt, getInterrupt, listPendingInterrupts } from "./interrupt-store";
import { eventsPage } from "./run-events";
import { seedRun } from "./testing/fixtures";
import { describeEachDatabase } from "./testing/test-databases";

describeEachDatabase("interrupts", (open) => {
  it("creates, lists and decides interrupts with their events", async () => {
    const { database } = await open();
    const run = await seedRun(database);
    const other = await seedRun(database);
    const approval = await createInterrupt(database, { runId: run.id, nodeId: "approve", request: { question: "send?", draft: "hi" } });
    const question = await createInterrupt(database, { runId: other.id, nodeId: "ask", request: { question: "which?" } });
    expect(approval).toMatchObject({ status: "pending", nodeId: "approve", request: { question: "send?", draft: "hi" }, decision: null });
    expect((await listPendingInterrupts(database)).map((item) => item.id)).toEqual([approval.id, question.id]);
    expect((await listPendingInterrupts(database, { runId: run.id })).map((item) => item.id)).toEqual([approval.id]);

    const decided = await decideInterrupt(database, approval.id, { kind: "edit", value: { draft: "hello" }, by: "ana" });
    expect(decided).toMatchObject({ status: "decided", decision: { kind: "edit", value: { draft: "hello" }, by: "ana" } });
    expect(decided.decidedAt).toBeInstanceOf(Date);
    expect(await getInterrupt(database, approval.id)).toEqual(decided);
    expect((await listPendingInterrupts(database)).map((item) => item.id)).toEqual([question.id]);

    const events = await eventsPage(database, run.id);
    expect(events.map((event) => [event.type, event.payload])).toEqual([
      ["run.created", expect.any(Object)],
      ["run.interrupt.created", { interrupt_id: approval.id, node_id: "approve" }],
      ["run.interrupt.decided", { interrupt_id: approval.id, node_id: "approve", decision: { kind: "edit", value: { draft: "hello" }, by: "ana" } }],
    ]);
  });

  it("refuses a second decision and an unknown interrupt", async () => {
    const { database } = await open();
    const run = await seedRun(database);
    const interrupt = await createInterrupt(database, { runId: run.id, nodeId: "n", request: null });
    await decideInterrupt(database, interrupt.id, { kind: "approve" });
    const again = await decideInterrupt(database, interrupt.id, { kind: "reject", reason: "late" }).catch((error: unknown) => error);
    expect(isRathError(again, "conflict")).toBe(true);
    expect((again as Error).message).toContain("expected status pending, found decided");
    expect((await getInterrupt(database, interrupt.id))?.decision).toEqual({ kind: "approve" });
    await expect(decideInterrupt(database, "int_missing", { kind: "respond", response: "x" })).rejects.toThrow(/interrupt int_missing not found/);
    await expect(decideInterrupt(database, interrupt.id, { kind: "maybe" } as never)).rejects.toThrow();
  });
});
