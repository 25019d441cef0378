import { expect, it } from "vitest";
import { describeEachDatabase } from "../../db/testing/test-databases";
import { runToCompletion } from "../../engine/run-to-completion";
import { QUEUE_ONLY_EXECUTOR } from "../../services/run-executor";
import { callerFor, exampleSpec, rowCounts } from "../testing/api-harness";
import type { ApiServices } from "./api-door";
import { postRunFork } from "./runs-endpoints";

function post(runId: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`http://localhost/api/v1/runs/${runId}/fork`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

describeEachDatabase("POST /api/v1/runs/:id/fork", (open) => {
  it("forks a finished run (201), answers a repeated Idempotency-Key with the same run (200), and refuses bad requests with JSON errors", async () => {
    const { database } = await open();
    const context = async (): Promise<ApiServices> => ({ database, executor: QUEUE_ONLY_EXECUTOR });
    const api = callerFor(database);
    const { run } = await api.runs.start({ spec: exampleSpec("hello-agent"), input: "hi" });
    expect((await runToCompletion(database, run.id)).status).toBe("succeeded");
    const graph = await api.sessions.graph({ runId: run.id });
    const answer = graph.sessions.find((session) => session.lineage.lineage_kind === "op_session_loop");
    if (answer === undefined) throw new Error("no agent output");

    const body = { sessionId: answer.id, chunkIndex: 0, edits: { input: "bonjour" } };
    const first = await postRunFork(run.id, post(run.id, body, { "Idempotency-Key": "fork-1" }), context);
    expect(first.status).toBe(201);
    const created = (await first.json()) as { run: { id: string; status: string }; created: boolean; fork: { fromRunId: string; continuesAt: string[] } };
    expect(created).toMatchObject({ created: true, run: { status: "queued" }, fork: { fromRunId: run.id } });
    expect(first.headers.get("location")).toBe(`/api/v1/runs/${created.run.id}`);
    const repeat = await postRunFork(run.id, post(run.id, body, { "Idempotency-Key": "fork-1" }), context);
    expect(repeat.status).toBe(200);
    expect(((await repeat.json()) as { run: { id: string } }).run.id).toBe(created.run.id);
    const done = await runToCompletion(database, created.run.id);
    expect(done.status).toBe("succeeded");
    expect((done.output as { text: string }).text).toContain("bonjour");

    const before = await rowCounts(database);
    const cases: Array<[string, unknown, number, string]> = [
      [run.id, { sessionId: answer.id, chunkIndex: 40 }, 400, "out of range"],
      [run.id, { sessionId: "ses_missing", chunkIndex: 0 }, 404, "session ses_missing not found"],
      [run.id, { sessionId: answer.id, chunkIndex: 0, edits: { toolResults: [{ chunkIndex: 0, content: "x" }] } }, 400, "not a tool_result"],
      [run.id, { sessionId: answer.id, chunkIndex: 0, extra: true }, 400, "extra"],
      [created.run.id, { sessionId: answer.id, chunkIndex: 0 }, 400, `belongs to run ${run.id}, not to run ${created.run.id}`],
      [run.id, "not json", 400, "not valid JSON"],
    ];
    for (const [runId, request, status, message] of cases) {
      const response = await postRunFork(runId, post(runId, request), context);
      expect(response.status, JSON.stringify(request)).toBe(status);
      expect(response.headers.get("content-type")).toContain("application/json");
      expect(JSON.stringify(await response.json())).toContain(message);
    }
    expect(await rowCounts(database)).toEqual(before);
  });
});
