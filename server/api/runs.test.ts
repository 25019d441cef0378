import { expect, it } from "vitest";
import { ANONYMOUS_LOOPBACK } from "../auth/principal";
import { createCaller } from "./root";
import { markDispatched, prepareEffect, recoverAfterCrash } from "../db/effect-ledger";
import { claimNext } from "../db/run-lease";
import { sessionGraph } from "../db/session-store";
import { transition } from "../db/run-store";
import type { Database } from "../db/database";
import { runToCompletion } from "../engine/run-to-completion";
import { describeEachDatabase } from "../db/testing/test-databases";
import { callerFor, exampleSpec, expectApiError, rowCounts } from "./testing/api-harness";

/** A run that "crashed" with a non-idempotent tool call in flight: ambiguous effect, status needs_review. */
async function crashedRun(database: Database, runId: string): Promise<string> {
  const claim = await claimNext(database, "test-worker", 30_000);
  if (claim === null || claim.run.id !== runId) throw new Error("expected to claim the run");
  const { effect } = await prepareEffect(database, { runId, idempotencyKey: "call-1", tool: "run_shell_command", args: { cmd: "send-email" }, idempotent: false });
  await markDispatched(database, effect.id);
  expect((await recoverAfterCrash(database, runId)).ambiguous).toEqual([effect.id]);
  await transition(database, runId, claim.run.version, "needs_review", { error: { code: "ambiguous_effects", message: "crashed mid-call" } });
  return effect.id;
}

describeEachDatabase("runs router", (open) => {
  it("starts a run of the head revision; the same idempotency key returns the same run", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { workflow, head } = await api.workflows.create({ name: "hello", spec: exampleSpec("hello-agent") });
    const first = await api.runs.start({ workflowId: workflow.id, input: "hi", idempotencyKey: "key-1", priority: 5 });
    expect(first.created).toBe(true);
    expect(first.run).toMatchObject({ status: "queued", revisionId: head?.id, planHash: head?.specSha256, priority: 5, input: "hi", idempotencyKey: "key-1" });
    const again = await api.runs.start({ workflowId: workflow.id, input: "hi", idempotencyKey: "key-1", priority: 5 });
    expect(again).toEqual({ run: first.run, created: false });
    // The same key with another request is refused (422 over HTTP), not answered with the first run.
    const reused = await expectApiError(api.runs.start({ workflowId: workflow.id, input: "something else", idempotencyKey: "key-1" }), "UNPROCESSABLE_CONTENT");
    expect(reused.code).toBe("idempotency_key_reused");
    const other = await api.runs.start({ workflowId: workflow.id, revisionId: head?.id, input: "hi", idempotencyKey: "key-2" });
    expect(other.run.id).not.toBe(first.run.id);
    expect((await rowCounts(database)).runs).toBe(2);
  });

  it("wakes the executor when a run is queued (start, decision, resume), not for a repeated idempotency key", async () => {
    const { database } = await open();
    const woken: string[] = [];
    const api = createCaller({ database, executor: { wake: (runId) => woken.push(runId) }, principal: ANONYMOUS_LOOPBACK });
    const { run } = await api.runs.start({ spec: exampleSpec("approval"), input: "x", idempotencyKey: "k" });
    await api.runs.start({ spec: exampleSpec("approval"), input: "x", idempotencyKey: "k" });
    expect(woken).toEqual([run.id]);
    await runToCompletion(database, run.id);
    const interrupt = (await api.runs.get({ runId: run.id })).pendingInterrupts[0];
    await api.runs.decideInterrupt({ interruptId: interrupt?.id ?? "", decision: "reject", payload: "not now" });
    expect(woken).toEqual([run.id, run.id]);
    const rejected = await runToCompletion(database, run.id);
    expect(rejected.status).toBe("failed");
    expect(rejected.error?.message).toContain("not now");
  });

  it("lists a needs_review run's ambiguous effects, refuses a plain resume, and requeues or fails it on review", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { run } = await api.runs.start({ spec: exampleSpec("hello-agent"), input: "x" });
    const effectId = await crashedRun(database, run.id);
    const effects = await api.runs.effects({ runId: run.id });
    expect(effects).toEqual([expect.objectContaining({ id: effectId, status: "ambiguous", tool: "run_shell_command", args: { cmd: "send-email" }, idempotent: false })]);
    expect(JSON.stringify(effects)).not.toContain("call-1");
    const refused = await expectApiError(api.runs.resume({ runId: run.id }), "CONFLICT");
    expect(refused.message).toContain(effectId);
    await expectApiError(api.runs.review({ runId: run.id, resolution: { action: "requeue", effects: [] } }), "CONFLICT");

    const requeued = await api.runs.review({
      runId: run.id,
      resolution: { action: "requeue", effects: [{ effectId, status: "succeeded", content: "{\"sent\":true}" }] },
    });
    expect(requeued.status).toBe("queued");
    expect((await api.runs.effects({ runId: run.id }))[0]).toMatchObject({ status: "succeeded", result: "{\"sent\":true}" });

    const second = await api.runs.start({ spec: exampleSpec("hello-agent"), input: "y" });
    await api.runs.cancel({ runId: run.id });
    await crashedRun(database, second.run.id);
    const failed = await api.runs.review({ runId: second.run.id, resolution: { action: "fail", reason: "the email was sent twice" } });
    expect(failed).toMatchObject({ status: "failed", error: { code: "review_failed", message: "the email was sent twice" } });
    await expectApiError(api.runs.review({ runId: second.run.id, resolution: { action: "fail" } }), "CONFLICT");
    await expectApiError(api.runs.effects({ runId: "run_missing" }), "NOT_FOUND");
  });

  it("refuses bad starts with the right codes and writes nothing", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { workflow } = await api.workflows.create({ name: "empty" });
    const before = await rowCounts(database);
    const noRevision = await expectApiError(api.runs.start({ workflowId: workflow.id, input: "x" }), "BAD_REQUEST");
    expect(noRevision.message).toContain("no saved revision");
    const unknown = await expectApiError(api.runs.start({ workflowId: "wf_missing", input: "x" }), "NOT_FOUND");
    expect(unknown.message).toContain("wf_missing");
    const both = await expectApiError(api.runs.start({ workflowId: workflow.id, spec: exampleSpec("hello-agent") }), "BAD_REQUEST");
    expect(both.fieldErrors).toHaveProperty("workflowId");
    const badSpec = await expectApiError(api.runs.start({ spec: { version: 1, nodes: [], edges: [] } }), "BAD_REQUEST");
    expect(badSpec.problems?.length).toBeGreaterThan(0);
    expect(await rowCounts(database)).toEqual(before);
  });

  it("runs an inline spec as one reused workflow, and lists runs by workflow, status and search in pages", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const one = await api.runs.start({ spec: exampleSpec("hello-agent"), input: "a" });
    const two = await api.runs.start({ spec: exampleSpec("hello-agent"), input: "b" });
    const three = await api.runs.start({ spec: exampleSpec("fork-merge-research"), input: "c" });
    expect(two.run.workflowId).toBe(one.run.workflowId);
    expect(three.run.workflowId).not.toBe(one.run.workflowId);
    await api.runs.cancel({ runId: two.run.id });

    const page1 = await api.runs.list({ limit: 2 });
    expect(page1.runs.map((run) => run.id)).toEqual([three.run.id, two.run.id]);
    const page2 = await api.runs.list({ limit: 2, cursor: page1.nextCursor ?? undefined });
    expect(page2.runs.map((run) => run.id)).toEqual([one.run.id]);
    expect(page2.nextCursor).toBeNull();
    expect((await api.runs.list({ workflowId: one.run.workflowId })).runs.map((run) => run.id)).toEqual([two.run.id, one.run.id]);
    expect((await api.runs.list({ status: "cancelled" })).runs.map((run) => run.id)).toEqual([two.run.id]);
    expect((await api.runs.list({ status: ["queued", "cancelled"], workflowId: three.run.workflowId })).runs).toHaveLength(1);
    // Search: part of the workflow's name, or of the run id.
    expect((await api.runs.list({ search: "Hello" })).runs.map((run) => run.id)).toEqual([two.run.id, one.run.id]);
    expect((await api.runs.list({ search: three.run.id.slice(-10) })).runs.map((run) => run.id)).toEqual([three.run.id]);
    expect((await api.runs.list({ search: "Hello", status: "cancelled" })).runs.map((run) => run.id)).toEqual([two.run.id]);
    expect((await api.runs.list({ search: "no such workflow" })).runs).toEqual([]);
  });

  it("pages events after a seq without gaps or duplicates, and shows, pages and compares the sessions of a completed run", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { run } = await api.runs.start({ spec: exampleSpec("fork-merge-research"), input: "compare the options" });
    const finished = await runToCompletion(database, run.id);
    expect(finished.status).toBe("succeeded");

    const seen: number[] = [];
    let after = 0;
    for (;;) {
      const page = await api.runs.events({ runId: run.id, afterSeq: after, limit: 3 });
      if (page.events.length === 0) break;
      seen.push(...page.events.map((event) => event.seq));
      expect(page.events.every((event) => event.runId === run.id)).toBe(true);
      after = page.nextAfterSeq;
      expect(page.status).toBe("succeeded");
    }
    expect(seen).toEqual(Array.from({ length: finished.lastEventSeq }, (_, index) => index + 1));
    const all = await api.runs.events({ runId: run.id, limit: 1000 });
    expect(all.events[0]?.type).toBe("run.created");
    expect(all.events.map((event) => event.type)).toContain("run.execution.completed");

    const graph = await api.sessions.graph({ runId: run.id });
    expect(graph.run.status).toBe("succeeded");
    expect(graph.sessions.length).toBeGreaterThanOrEqual(4);
    const ids = new Set(graph.sessions.map((session) => session.id));
    // The graph's parents (the sessions' parents column) are the store's lineage edge rows, in order.
    const { edges } = await sessionGraph(database, run.id);
    for (const session of graph.sessions) {
      expect(session.nodeId).not.toBeNull();
      expect(session.lineage.parent_session_ids).toEqual(
        edges.filter((edge) => edge.childId === session.id).sort((a, b) => a.position - b.position).map((edge) => edge.parentId),
      );
    }
    expect(edges.length).toBe(graph.sessions.reduce((count, session) => count + session.lineage.parent_session_ids.length, 0));
    expect(edges.every((edge) => ids.has(edge.parentId) && ids.has(edge.childId))).toBe(true);
    const merged = graph.sessions.find((session) => session.lineage.lineage_kind === "op_merge");
    expect(merged?.lineage.parent_session_ids.length).toBeGreaterThanOrEqual(2);
    expect(graph.sessions.some((session) => session.lineage.lineage_kind === "op_fork")).toBe(true);
    expect(graph.sessions.some((session) => session.ownUsage !== null && session.ownUsage.total_tokens > 0)).toBe(true);

    const longest = [...graph.sessions].sort((a, b) => b.chunkCount - a.chunkCount)[0];
    if (longest === undefined) throw new Error("no sessions");
    const collected: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.sessions.chunks({ sessionId: longest.id, limit: 2, ...(cursor === undefined ? {} : { cursor }) });
      collected.push(...page.chunks.map((chunk) => chunk.index));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(collected).toEqual(Array.from({ length: longest.chunkCount }, (_, index) => index));
    const window = await api.sessions.chunks({ sessionId: longest.id, fromIndex: 1, toIndex: 2 });
    expect(window.chunks.map((chunk) => chunk.index)).toEqual([1]);
    expect(window.nextCursor).toBeNull();
    await expectApiError(api.sessions.chunks({ sessionId: "nope" }), "NOT_FOUND");

    const byNode = (nodeId: string, kind: string) => graph.sessions.filter((session) => session.nodeId === nodeId && session.lineage.lineage_kind === kind);
    const [input] = byNode("input", "leaf_user");
    const [pros] = byNode("pros", "op_session_loop");
    const [merge] = byNode("merge", "op_merge");
    const forks = byNode("fork", "op_fork");
    if (input === undefined || pros === undefined || merge === undefined || forks.length !== 2) throw new Error("unexpected graph shape");
    const mergeVsPros = await api.sessions.compare({ leftId: merge.id, rightId: pros.id, limit: 1 });
    expect(mergeVsPros).toMatchObject({ commonAncestorId: pros.id, commonPrefix: pros.chunkCount, divergenceIndex: pros.chunkCount, nextIndex: pros.chunkCount + 1 });
    expect(mergeVsPros.differences).toHaveLength(1);
    expect(mergeVsPros.differences[0]).toMatchObject({ index: pros.chunkCount, right: null, same: false });
    const rest = await api.sessions.compare({ leftId: merge.id, rightId: pros.id, fromIndex: pros.chunkCount + 1 });
    expect(rest.differences.map((difference) => difference.index)).toEqual([pros.chunkCount + 1]);
    expect(rest.nextIndex).toBeNull();
    const forksCompared = await api.sessions.compare({ leftId: forks[0]?.id ?? "", rightId: forks[1]?.id ?? "" });
    expect(forksCompared).toMatchObject({ commonAncestorId: input.id, commonPrefix: input.chunkCount, divergenceIndex: null, differences: [], nextIndex: null });
    await expectApiError(api.sessions.compare({ leftId: merge.id, rightId: "nope" }), "NOT_FOUND");
    await expectApiError(api.sessions.graph({ runId: "run_nope" }), "NOT_FOUND");
  });

  it("cancels a queued run, refuses to resume it, and reports unknown runs as NOT_FOUND", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { run } = await api.runs.start({ spec: exampleSpec("hello-agent"), input: "x" });
    const cancelled = await api.runs.cancel({ runId: run.id });
    expect(cancelled.status).toBe("cancelled");
    expect((await api.runs.cancel({ runId: run.id })).version).toBe(cancelled.version);
    const refused = await expectApiError(api.runs.resume({ runId: run.id }), "CONFLICT");
    expect(refused.message).toContain("cancelled");
    await expectApiError(api.runs.get({ runId: "run_missing" }), "NOT_FOUND");
    await expectApiError(api.runs.events({ runId: "run_missing" }), "NOT_FOUND");
  });

  it("waits on an approval, takes a decision, and finishes; a second decision is a CONFLICT", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { run } = await api.runs.start({ spec: exampleSpec("approval"), input: "Draft the launch email." });
    expect((await runToCompletion(database, run.id)).status).toBe("waiting");
    const waiting = await api.runs.get({ runId: run.id });
    expect(waiting.run.status).toBe("waiting");
    expect(waiting.pendingInterrupts).toHaveLength(1);
    const interrupt = waiting.pendingInterrupts[0];
    if (interrupt === undefined) throw new Error("no interrupt");
    expect(interrupt.nodeId).toBe("review");
    expect((await api.runs.pendingInterrupts()).map((item) => item.id)).toEqual([interrupt.id]);
    expect(await api.runs.pendingInterrupts({ runId: run.id })).toEqual(waiting.pendingInterrupts);
    await expectApiError(api.runs.resume({ runId: run.id }), "CONFLICT");
    await expectApiError(api.runs.decideInterrupt({ interruptId: interrupt.id, decision: "respond" }), "BAD_REQUEST");

    const decided = await api.runs.decideInterrupt({ interruptId: interrupt.id, decision: "edit", payload: "Edited email text." });
    expect(decided.status).toBe("queued");
    const done = await runToCompletion(database, run.id);
    expect(done.status).toBe("succeeded");
    expect((done.output as { text: string }).text).toBe("Edited email text.");
    expect(await api.runs.pendingInterrupts()).toEqual([]);
    const again = await expectApiError(api.runs.decideInterrupt({ interruptId: interrupt.id, decision: "approve" }), "CONFLICT");
    expect(again.message).toContain("already decided");
    await expectApiError(api.runs.decideInterrupt({ interruptId: "int_missing", decision: "approve" }), "NOT_FOUND");
  });
});
