/**
 * API paths no other test walks: `workflows.getRevision` (an old revision stays exactly as saved after newer
 * ones, and a run pinned to it executes that revision, not the head), and `runs.resume` succeeding for a run in
 * review whose ambiguous calls were settled.
 */
import { expect, it } from "vitest";
import { markDispatched, prepareEffect, recoverAfterCrash, settleEffect } from "../db/effect-ledger";
import { claimNext } from "../db/run-lease";
import { transition } from "../db/run-store";
import { sessionGraph } from "../db/session-store";
import { describeEachDatabase } from "../db/testing/test-databases";
import { runToCompletion } from "../engine/run-to-completion";
import { callerFor, exampleSpec, expectApiError } from "./testing/api-harness";

/** hello-agent with its agent node renamed, so the sessions of a run tell which revision ran. */
function renamedAgent(id: string): Record<string, unknown> {
  const text = JSON.stringify(exampleSpec("hello-agent")).replaceAll('"assistant"', `"${id}"`);
  return JSON.parse(text) as Record<string, unknown>;
}

describeEachDatabase("revisions and resume (audit)", (open) => {
  it("getRevision returns an old revision unchanged, and a run pinned to it executes that revision", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { workflow, head: first } = await api.workflows.create({ name: "pinned", spec: renamedAgent("writer_v1"), layout: { nodes: { input: { x: 1, y: 2 } } } });
    if (first === null || first === undefined) throw new Error("expected a first revision");
    const second = await api.workflows.saveRevision({ workflowId: workflow.id, parentRevisionId: first.id, spec: renamedAgent("writer_v2"), layout: { nodes: {} } });
    expect(second.parentRevisionId).toBe(first.id);

    const old = await api.workflows.getRevision({ workflowId: workflow.id, revisionId: first.id });
    expect(old).toEqual(first);
    expect(old.spec).toEqual(renamedAgent("writer_v1"));
    expect(old.layout).toEqual({ nodes: { input: { x: 1, y: 2 } } });
    const other = await api.workflows.create({ name: "other", spec: exampleSpec("hello-agent") });
    await expectApiError(api.workflows.getRevision({ workflowId: other.workflow.id, revisionId: first.id }), "NOT_FOUND");

    const pinned = await api.runs.start({ workflowId: workflow.id, revisionId: first.id, input: "old" });
    const head = await api.runs.start({ workflowId: workflow.id, input: "new" });
    expect(pinned.run).toMatchObject({ revisionId: first.id, planHash: first.specSha256 });
    expect(head.run).toMatchObject({ revisionId: second.id, planHash: second.specSha256 });
    for (const run of [pinned.run, head.run]) expect((await runToCompletion(database, run.id)).status).toBe("succeeded");
    const nodesOf = async (runId: string) => new Set((await sessionGraph(database, runId)).sessions.map((session) => session.nodeId));
    expect(await nodesOf(pinned.run.id)).toContain("writer_v1");
    expect(await nodesOf(pinned.run.id)).not.toContain("writer_v2");
    expect(await nodesOf(head.run.id)).toContain("writer_v2");
  });

  it("resume requeues a needs_review run once its ambiguous calls are settled, and the run finishes", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { run } = await api.runs.start({ spec: exampleSpec("hello-agent"), input: "x" });
    const claim = await claimNext(database, "crashed-worker", 30_000);
    expect(claim?.run.id).toBe(run.id);
    const { effect } = await prepareEffect(database, { runId: run.id, idempotencyKey: "call-1", tool: "run_shell_command", args: { cmd: "deploy" }, idempotent: false });
    await markDispatched(database, effect.id);
    await recoverAfterCrash(database, run.id);
    await transition(database, run.id, claim!.run.version, "needs_review", { error: { code: "ambiguous_effects", message: "crashed mid-call" } });
    await expectApiError(api.runs.resume({ runId: run.id }), "CONFLICT");

    await settleEffect(database, effect.id, { status: "failed", error: "checked by hand: the deploy did not happen" });
    const resumed = await api.runs.resume({ runId: run.id });
    expect(resumed.status).toBe("queued");
    expect((await runToCompletion(database, run.id)).status).toBe("succeeded");
    await expectApiError(api.runs.resume({ runId: run.id }), "CONFLICT");
  });
});
