import { describe, expect, it } from "vitest";
import { listEffects } from "../db/effect-ledger";
import { listPendingInterrupts } from "../db/interrupt-store";
import { requestCancel } from "../db/run-store";
import { chunkPage, sessionGraph } from "../db/session-store";
import { describeEachDatabase } from "../db/testing/test-databases";
import { inputText } from "./run-executor";
import { submitDecision } from "./run-interrupts";
import { runToCompletion } from "./run-to-completion";
import { allEvents } from "./testing/canonical-graph";
import { linearSpec, queueRun } from "./testing/engine-fixtures";
import { createTestProvider } from "./testing/test-provider";

const TOOL = { name: "workspace_path_exists", arguments: { path: "notes.txt" } };

describe("inputText", () => {
  it("reads a string, {text} or {input}, and nothing else", () => {
    expect(inputText("hi")).toBe("hi");
    expect(inputText({ text: "a" })).toBe("a");
    expect(inputText({ input: "b" })).toBe("b");
    expect(inputText({ other: 1 })).toBeUndefined();
  });
});

describeEachDatabase("run executor", (open) => {
  it("runs input -> agent (one tool call) -> output and stores the lineage, chunks, checkpoints and events", async () => {
    const { database } = await open();
    const spec = linearSpec([{ id: "assistant", directive: { tool: TOOL, usage: [10, 5] }, builtins: ["workspace_path_exists"] }]);
    const queued = await queueRun(database, spec, { input: "is there a notes file?" });
    const run = await runToCompletion(database, queued.id, { providers: { scripted: createTestProvider() } });

    expect(run.status).toBe("succeeded");
    expect(run.output).toMatchObject({ text: expect.stringContaining("assistant answers: is there a notes file?") });
    expect(run.tokensUsed).toBe(30);

    const graph = await sessionGraph(database, run.id);
    const byKind = (kind: string) => graph.sessions.filter((session) => session.lineage.lineage_kind === kind);
    const [input] = byKind("leaf_user");
    const [root] = byKind("leaf_system");
    const [loop] = byKind("op_session_loop");
    expect(graph.sessions).toHaveLength(3);
    expect(input?.nodeId).toBe("input");
    expect(loop?.nodeId).toBe("assistant");
    expect(loop?.lineage.parent_session_ids).toEqual([input?.id, root?.id]);
    expect(graph.edges).toHaveLength(2);
    expect(loop?.chunkCount).toBe(4);
    expect(loop?.usage?.total_tokens).toBe(30);

    const chunks = await chunkPage(database, loop?.id as string);
    expect(chunks.map((record) => record.chunk.kind)).toEqual(["user", "assistant", "tool_result", "assistant"]);
    expect(chunks.map((record) => record.index)).toEqual([0, 1, 2, 3]);
    const rootChunks = await chunkPage(database, root?.id as string);
    expect(rootChunks.map((record) => record.chunk.kind)).toEqual(["system"]);

    const checkpoints = await database.client.checkpoint.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } });
    expect(checkpoints.map((checkpoint) => checkpoint.seq)).toEqual([1, 2, 3]);
    expect(checkpoints.map((checkpoint) => JSON.parse(checkpoint.nextNodes))).toEqual([["assistant"], ["output"], []]);
    expect(checkpoints.every((checkpoint) => checkpoint.planHash === run.planHash)).toBe(true);
    expect(checkpoints[2]?.effectWatermark).toBe(1);

    const events = await allEvents(database, run.id);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    const types = events.map((event) => event.type);
    expect(types.slice(0, 3)).toEqual(["run.created", "run.state.changed", "run.claimed"]);
    expect(types.slice(-2)).toEqual(["run.state.changed", "run.execution.completed"]);
    expect(types.filter((type) => type === "run.checkpoint.created")).toHaveLength(3);
    expect(types).toContain("tool.call.started");
    expect(types).toContain("tool.call.ended");
    expect(types).not.toContain("model.delta");
    expect(types.filter((type) => type === "session.created")).toHaveLength(3);

    const effects = await listEffects(database, run.id);
    expect(effects).toHaveLength(1);
    expect(effects[0]).toMatchObject({ status: "succeeded", tool: "workspace_path_exists", idempotent: true });
    expect(effects[0]?.idempotencyKey).toMatch(new RegExp(`^${run.id}:assistant:2:call_`));
  });

  it("waits on an approval, resumes with approve and completes; reject fails the run", async () => {
    const { database } = await open();
    const spec = linearSpec([{ id: "drafter", directive: {} }], {}, { approvalAfter: "drafter" });
    const provider = createTestProvider();
    const approved = await queueRun(database, spec);
    const waiting = await runToCompletion(database, approved.id, { providers: { scripted: provider } });
    expect(waiting.status).toBe("waiting");
    const [interrupt] = await listPendingInterrupts(database, { runId: approved.id });
    expect(interrupt?.nodeId).toBe("review");
    expect(interrupt?.request).toMatchObject({ prompt: "Approve?", text: "drafter answers: hello" });
    const checkpoint = await database.client.checkpoint.findFirst({ where: { runId: approved.id }, orderBy: { seq: "desc" } });
    expect(JSON.parse(checkpoint?.pendingInterrupts ?? "[]")).toEqual([interrupt?.id]);

    const requeued = await submitDecision(database, interrupt?.id as string, { kind: "approve" });
    expect(requeued.status).toBe("queued");
    const done = await runToCompletion(database, approved.id, { providers: { scripted: provider } });
    expect(done.status).toBe("succeeded");
    expect(done.output).toMatchObject({ text: "drafter answers: hello" });
    const types = (await allEvents(database, approved.id)).map((event) => event.type);
    expect(types.filter((type) => type === "run.interrupt.created")).toHaveLength(1);
    expect(types.filter((type) => type === "run.interrupt.decided")).toHaveLength(1);

    const rejected = await queueRun(database, spec);
    await runToCompletion(database, rejected.id, { providers: { scripted: provider } });
    const [pending] = await listPendingInterrupts(database, { runId: rejected.id });
    await submitDecision(database, pending?.id as string, { kind: "reject", reason: "too long" });
    const failed = await runToCompletion(database, rejected.id, { providers: { scripted: provider } });
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatchObject({ code: "approval_rejected", node_id: "review" });
    expect(failed.error?.message).toContain("too long");
  });

  it("applies respond and edit decisions: respond appends to the stored session, edit derives a new one", async () => {
    const { database } = await open();
    const spec = linearSpec([{ id: "drafter", directive: {} }], {}, { approvalAfter: "drafter" });
    const providers = { scripted: createTestProvider() };

    const responded = await queueRun(database, spec);
    await runToCompletion(database, responded.id, { providers });
    const [respondInterrupt] = await listPendingInterrupts(database, { runId: responded.id });
    await submitDecision(database, respondInterrupt?.id as string, { kind: "respond", response: "add a greeting" });
    const respondDone = await runToCompletion(database, responded.id, { providers });
    expect(respondDone.status).toBe("succeeded");
    expect(respondDone.output).toMatchObject({ text: "add a greeting" });
    const loop = (await sessionGraph(database, responded.id)).sessions.find((session) => session.lineage.lineage_kind === "op_session_loop");
    const chunks = await chunkPage(database, loop?.id as string);
    expect(chunks.map((record) => record.chunk.kind)).toEqual(["user", "assistant", "user"]);
    expect(loop?.chunkCount).toBe(3);

    const edited = await queueRun(database, spec);
    await runToCompletion(database, edited.id, { providers });
    const [editInterrupt] = await listPendingInterrupts(database, { runId: edited.id });
    await submitDecision(database, editInterrupt?.id as string, { kind: "edit", value: "Dear all, version 2 is out." });
    const editDone = await runToCompletion(database, edited.id, { providers });
    expect(editDone.output).toMatchObject({ text: "Dear all, version 2 is out." });
    const editedSession = (await sessionGraph(database, edited.id)).sessions.find((session) => session.lineage.lineage_operator === "Approval.edit");
    expect(editedSession?.nodeId).toBe("review");
    expect(editedSession?.chunkCount).toBe(2);
  });

  it("cancels a queued run and a waiting run", async () => {
    const { database } = await open();
    const queued = await queueRun(database, linearSpec([{ id: "a", directive: {} }]));
    expect((await requestCancel(database, queued.id)).status).toBe("cancelled");
    expect((await runToCompletion(database, queued.id, { providers: { scripted: createTestProvider() } })).status).toBe("cancelled");

    const spec = linearSpec([{ id: "drafter", directive: {} }], {}, { approvalAfter: "drafter" });
    const waiting = await queueRun(database, spec);
    expect((await runToCompletion(database, waiting.id, { providers: { scripted: createTestProvider() } })).status).toBe("waiting");
    const cancelled = await requestCancel(database, waiting.id);
    expect(cancelled.status).toBe("cancelled");
    expect(await database.client.checkpoint.count({ where: { runId: waiting.id } })).toBe(3);
  });

  it("fails a run whose revision compiles to another plan hash, naming both hashes", async () => {
    const { database } = await open();
    const run = await queueRun(database, linearSpec([{ id: "a", directive: {} }]));
    await database.client.run.update({ where: { id: run.id }, data: { planHash: "0".repeat(64) } });
    const failed = await runToCompletion(database, run.id, { providers: { scripted: createTestProvider() } });
    expect(failed.status).toBe("failed");
    expect(failed.error?.code).toBe("plan_hash_mismatch");
    expect(failed.error?.message).toContain("0".repeat(64));
    expect(await database.client.checkpoint.count({ where: { runId: run.id } })).toBe(0);
  });
});
