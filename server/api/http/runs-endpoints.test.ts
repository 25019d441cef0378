import { afterEach, expect, it, vi } from "vitest";
import { describeEachDatabase } from "../../db/testing/test-databases";
import { runToCompletion } from "../../engine/run-to-completion";
import { QUEUE_ONLY_EXECUTOR } from "../../services/run-executor";
import { exampleSpec, rowCounts } from "../testing/api-harness";
import type { ApiServices } from "./api-door";
import { getRun, getRunEvents, postRun } from "./runs-endpoints";

afterEach(() => vi.restoreAllMocks());

function post(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/api/v1/runs", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

describeEachDatabase("HTTP runs endpoints", (open) => {
  it("creates a run (201), returns the same run for a repeated Idempotency-Key and the same request (200), refuses the key with another request (422), and serves status and events", async () => {
    const { database } = await open();
    const context = async (): Promise<ApiServices> => ({ database, executor: QUEUE_ONLY_EXECUTOR });
    const first = await postRun(post({ spec: exampleSpec("hello-agent"), input: "hi", priority: 3 }, { "Idempotency-Key": "abc" }), context);
    expect(first.status).toBe(201);
    expect(first.headers.get("content-type")).toContain("application/json");
    const created = (await first.json()) as { run: { id: string; status: string; priority: number }; created: boolean };
    expect(created).toMatchObject({ created: true, run: { status: "queued", priority: 3 } });
    expect(first.headers.get("location")).toBe(`/api/v1/runs/${created.run.id}`);

    // The same request (keys in another order) is a retry: the first run, 200.
    const repeat = await postRun(post({ priority: 3, input: "hi", spec: exampleSpec("hello-agent") }, { "Idempotency-Key": "abc" }), context);
    expect(repeat.status).toBe(200);
    expect(((await repeat.json()) as { run: { id: string } }).run.id).toBe(created.run.id);
    // The same key with another request is a mistake: 422 idempotency_key_reused, and no run is created.
    const before = await rowCounts(database);
    for (const body of [{ spec: exampleSpec("hello-agent"), input: "other", priority: 3 }, { spec: exampleSpec("hello-agent"), input: "hi" }]) {
      const reused = await postRun(post(body, { "Idempotency-Key": "abc" }), context);
      expect(reused.status).toBe(422);
      const error = ((await reused.json()) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe("idempotency_key_reused");
      expect(error.message).toContain(created.run.id);
    }
    expect(await rowCounts(database)).toEqual(before);

    await runToCompletion(database, created.run.id);
    const status = await getRun(created.run.id, context);
    expect(status.status).toBe(200);
    const body = (await status.json()) as { run: { status: string; output: { text: string }; error: unknown } };
    expect(body.run.status).toBe("succeeded");
    expect(body.run.output.text).toContain("hi");
    expect(body.run.error).toBeNull();

    const events = await getRunEvents(created.run.id, new URL(`http://localhost/api/v1/runs/${created.run.id}/events?after=2&limit=3`), context);
    expect(events.status).toBe(200);
    const page = (await events.json()) as { events: Array<{ seq: number }>; nextAfterSeq: number };
    expect(page.events.map((event) => event.seq)).toEqual([3, 4, 5]);
    expect(page.nextAfterSeq).toBe(5);
  });

  it("answers errors as {error:{code,message}} with 400, 404, 422 and 500 statuses", async () => {
    const { database } = await open();
    const context = async (): Promise<ApiServices> => ({ database, executor: QUEUE_ONLY_EXECUTOR });
    const before = await rowCounts(database);

    const badJson = await postRun(post("{nope"), context);
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toEqual({ error: { code: "invalid_argument", message: "expected a JSON object body, found text that is not valid JSON" } });

    const badField = await postRun(post({ spec: exampleSpec("hello-agent"), priority: "high" }), context);
    expect(badField.status).toBe(400);
    const fieldBody = (await badField.json()) as { error: { code: string; fieldErrors: Record<string, string[]> } };
    expect(fieldBody.error.code).toBe("invalid_argument");
    expect(Object.keys(fieldBody.error.fieldErrors)).toEqual(["priority"]);

    const problems = await postRun(post({ spec: { version: 1, name: "x", nodes: [], edges: [] }, input: "x" }), context);
    expect(problems.status).toBe(422);
    const problemBody = (await problems.json()) as { error: { code: string; problems: Array<{ code: string }> } };
    expect(problemBody.error.code).toBe("invalid_workflow");
    expect(problemBody.error.problems.map((problem) => problem.code)).toContain("missing_input");

    const missingWorkflow = await postRun(post({ workflowId: "wf_nope", input: "x" }), context);
    expect(missingWorkflow.status).toBe(404);
    const missingRun = await getRun("run_nope", context);
    expect(missingRun.status).toBe(404);
    expect(await missingRun.json()).toEqual({ error: { code: "not_found", message: "run run_nope not found" } });
    const badAfter = await getRunEvents("run_nope", new URL("http://localhost/api/v1/runs/run_nope/events?after=-1"), context);
    expect(badAfter.status).toBe(400);
    expect(await rowCounts(database)).toEqual(before);

    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const broken = await getRun("run_x", async () => {
      throw new Error("connect ECONNREFUSED postgres://admin:hunter2@db");
    });
    expect(broken.status).toBe(500);
    const brokenBody = (await broken.json()) as { error: { code: string; message: string; reference: string } };
    expect(brokenBody.error.code).toBe("internal");
    expect(JSON.stringify(brokenBody)).not.toContain("hunter2");
    expect(log).toHaveBeenCalledOnce();
  });
});
