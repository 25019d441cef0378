/**
 * The Next.js route handlers themselves (app/api/**), called with real Request objects in embedded mode: a
 * temp SQLite file through RATH_DB_PATH and the in-process worker executing the runs they queue.
 */
import { expect, it } from "vitest";
import { POST as postRuns } from "../../../app/api/v1/runs/route";
import { GET as getRunRoute } from "../../../app/api/v1/runs/[id]/route";
import { GET as getEventsRoute } from "../../../app/api/v1/runs/[id]/events/route";
import { GET as trpcGet, POST as trpcPost } from "../../../app/api/trpc/[trpc]/route";
import { exampleSpec } from "../testing/api-harness";
import { useTemporaryStudio } from "../testing/temporary-studio";

// As `npm run studio` starts it: on loopback, no sign-in.
useTemporaryStudio("rath-api-routes", { RATH_IN_PROCESS_WORKER: "1", RATH_HOST: "127.0.0.1" });

const params = (id: string) => ({ params: Promise.resolve({ id }) });

it("POST /api/v1/runs queues a run that the in-process worker finishes; GET shows status, output and events", async () => {
  const request = () =>
    new Request("http://localhost/api/v1/runs", {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": "route-test" },
      body: JSON.stringify({ spec: exampleSpec("hello-agent"), input: "from the route" }),
    });
  const created = await postRuns(request());
  expect(created.status).toBe(201);
  const { run } = (await created.json()) as { run: { id: string } };
  expect((await postRuns(request())).status).toBe(200);

  let status = "queued";
  let body: { run: { status: string; output: { text: string } | null } } | undefined;
  const deadline = Date.now() + 20_000;
  while (!["succeeded", "failed", "cancelled", "timed_out"].includes(status) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const response = await getRunRoute(new Request(`http://localhost/api/v1/runs/${run.id}`), params(run.id));
    expect(response.status).toBe(200);
    body = (await response.json()) as typeof body;
    status = body?.run.status ?? "missing";
  }
  expect(status).toBe("succeeded");
  expect(body?.run.output?.text).toContain("from the route");

  const events = await getEventsRoute(new Request(`http://localhost/api/v1/runs/${run.id}/events?after=0`), params(run.id));
  const page = (await events.json()) as { events: Array<{ seq: number; type: string }> };
  expect(page.events[0]).toMatchObject({ seq: 1, type: "run.created" });
  expect(page.events.map((event) => event.type)).toContain("run.execution.completed");

  const missing = await getRunRoute(new Request("http://localhost/api/v1/runs/run_nope"), params("run_nope"));
  expect(missing.status).toBe(404);
  expect(await missing.json()).toEqual({ error: { code: "not_found", message: "run run_nope not found" } });
});

it("serves tRPC at /api/trpc: queries over GET, mutations over POST, errors without a stack", async () => {
  const created = await trpcPost(
    new Request("http://localhost/api/trpc/workflows.create", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "over http", spec: exampleSpec("hello-agent") }),
    }),
  );
  expect(created.status).toBe(200);
  const workflow = ((await created.json()) as { result: { data: { workflow: { id: string } } } }).result.data.workflow;
  const input = encodeURIComponent(JSON.stringify({ workflowId: workflow.id }));
  const got = await trpcGet(new Request(`http://localhost/api/trpc/workflows.get?input=${input}`));
  expect(((await got.json()) as { result: { data: { workflow: { name: string } } } }).result.data.workflow.name).toBe("over http");

  const invalid = await trpcPost(
    new Request("http://localhost/api/trpc/workflows.saveRevision", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ workflowId: workflow.id, spec: { version: 1, nodes: [], edges: [] } }),
    }),
  );
  expect(invalid.status).toBe(422);
  const error = ((await invalid.json()) as { error: { message: string; data: Record<string, unknown> } }).error;
  expect(error.data).toMatchObject({ code: "invalid_workflow", trpcCode: "BAD_REQUEST", path: "workflows.saveRevision" });
  expect(Array.isArray(error.data.problems)).toBe(true);
  expect(JSON.stringify(error)).not.toContain("stack");
});
