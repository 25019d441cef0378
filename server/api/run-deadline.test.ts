import { expect, it } from "vitest";
import { expireDeadlines } from "../db/run-lease";
import { describeEachDatabase } from "../db/testing/test-databases";
import { runToCompletion } from "../engine/run-to-completion";
import { QUEUE_ONLY_EXECUTOR } from "../services/run-executor";
import { getRun, postRun } from "./http/runs-endpoints";
import { callerFor, exampleSpec, expectApiError } from "./testing/api-harness";
import type { ApiServices } from "./http/api-door";

describeEachDatabase("run deadlines through the API", (open) => {
  it("runs.start takes timeoutMs (else the spec's settings.runTimeoutMs) and the run view shows the deadline", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const explicit = await api.runs.start({ spec: exampleSpec("hello-agent"), input: "x", timeoutMs: 90_000 });
    expect(Date.parse(explicit.run.deadlineAt ?? "") - Date.parse(explicit.run.createdAt)).toBe(90_000);
    expect(explicit.run.waitDeadlineAt).toBeNull();

    const spec = { ...exampleSpec("hello-agent"), settings: { ...(exampleSpec("hello-agent").settings as object), runTimeoutMs: 45_000 } };
    const { workflow } = await api.workflows.create({ name: "timed", spec });
    const fromSettings = await api.runs.start({ workflowId: workflow.id, input: "x" });
    expect(Date.parse(fromSettings.run.deadlineAt ?? "") - Date.parse(fromSettings.run.createdAt)).toBe(45_000);
    const overridden = await api.runs.start({ workflowId: workflow.id, input: "x", timeoutMs: 5_000 });
    expect(Date.parse(overridden.run.deadlineAt ?? "") - Date.parse(overridden.run.createdAt)).toBe(5_000);
    const none = await api.runs.start({ spec: exampleSpec("hello-agent"), input: "y" });
    expect(none.run.deadlineAt).toBeNull();

    await expectApiError(api.runs.start({ spec: exampleSpec("hello-agent"), input: "x", timeoutMs: 0 }), "BAD_REQUEST");

    const [timedOut] = await expireDeadlines(database, new Date(Date.parse(overridden.run.deadlineAt ?? "") + 1));
    expect(timedOut?.id).toBe(overridden.run.id);
    const detail = await api.runs.get({ runId: overridden.run.id });
    expect(detail.run).toMatchObject({ status: "timed_out", error: { code: "run_timeout" } });
    expect(detail.run.finishedAt).not.toBeNull();
  });

  it("shows a waiting run's approval expiry", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const spec = exampleSpec("approval") as { nodes: Array<{ type: string; config: Record<string, unknown> }> };
    for (const node of spec.nodes) if (node.type === "approval") node.config.timeoutMs = 120_000;
    const { run } = await api.runs.start({ spec, input: "x" });
    await runToCompletion(database, run.id);
    const detail = await api.runs.get({ runId: run.id });
    expect(detail.run.status).toBe("waiting");
    expect(detail.pendingInterrupts[0]?.request).toMatchObject({ expiresAt: detail.run.waitDeadlineAt });
    expect(Date.parse(detail.run.waitDeadlineAt ?? "")).toBeGreaterThan(Date.now() + 60_000);
  });

  it("POST /api/v1/runs accepts timeoutMs and GET shows deadlineAt", async () => {
    const { database } = await open();
    const context = async (): Promise<ApiServices> => ({ database, executor: QUEUE_ONLY_EXECUTOR });
    const response = await postRun(
      new Request("http://localhost/api/v1/runs", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ spec: exampleSpec("hello-agent"), input: "hi", timeoutMs: 30_000 }),
      }),
      context,
    );
    expect(response.status).toBe(201);
    const { run } = (await response.json()) as { run: { id: string; createdAt: string; deadlineAt: string } };
    expect(Date.parse(run.deadlineAt) - Date.parse(run.createdAt)).toBe(30_000);
    const read = (await (await getRun(run.id, context)).json()) as { run: { deadlineAt: string } };
    expect(read.run.deadlineAt).toBe(run.deadlineAt);
  });
});
