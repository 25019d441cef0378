/**
 * Queries sent as POST (tRPC's method override, used by the editor for `workflows.validate`, whose input — a
 * 300-node spec — is too long for a URL): a same-origin JSON POST is answered like the GET, and the POST still
 * passes the door, so a cross-site `text/plain` one is 403.
 */
import { expect, it } from "vitest";
import { GET as trpcGet, POST as trpcPost } from "../../../app/api/trpc/[trpc]/route";
import { benchWorkflow } from "../../../bench/canvas-workflow";
import { useTemporaryStudio } from "../testing/temporary-studio";

useTemporaryStudio("rath-method-override", { RATH_IN_PROCESS_WORKER: "0", RATH_HOST: "127.0.0.1" });

const STUDIO = "http://127.0.0.1:3000";

function post(headers: Record<string, string>, body: string): Promise<Response> {
  return trpcPost(new Request(`${STUDIO}/api/trpc/workflows.validate`, { method: "POST", headers: { host: "127.0.0.1:3000", ...headers }, body }));
}

it("a 300-node spec is validated over POST (its GET URL would be far too long); the answer matches the GET of a small spec's shape", async () => {
  const { spec } = benchWorkflow();
  const body = JSON.stringify({ spec });
  expect(encodeURIComponent(body).length).toBeGreaterThan(30_000);
  const response = await post({ origin: STUDIO, "content-type": "application/json" }, body);
  expect(response.status, await response.clone().text()).toBe(200);
  expect(((await response.json()) as { result: { data: unknown } }).result.data).toMatchObject({ ok: true, planId: expect.stringMatching(/^plan_/) });

  const broken = { ...spec, edges: spec.edges.slice(1) };
  const refused = await post({ origin: STUDIO, "content-type": "application/json" }, JSON.stringify({ spec: broken }));
  const answer = ((await refused.json()) as { result: { data: { ok: boolean; problems: { code: string; nodeId?: string }[] } } }).result.data;
  expect(answer.ok).toBe(false);
  expect(answer.problems.map((problem) => `${problem.code}:${problem.nodeId ?? ""}`)).toContain("dead_end:input");

  const small = { version: 1, name: "small", nodes: [{ id: "input", type: "input", config: {} }], edges: [] };
  const viaGet = await trpcGet(new Request(`${STUDIO}/api/trpc/workflows.validate?input=${encodeURIComponent(JSON.stringify({ spec: small }))}`, { headers: { host: "127.0.0.1:3000" } }));
  const viaPost = await post({ origin: STUDIO, "content-type": "application/json" }, JSON.stringify({ spec: small }));
  expect(await viaPost.json()).toEqual(await viaGet.json());
});

it("a cross-site text/plain POST of the query is refused with 403, like any POST", async () => {
  const response = await post({ origin: "https://evil.example", "content-type": "text/plain;charset=UTF-8" }, JSON.stringify({ spec: benchWorkflow().spec }));
  expect(response.status).toBe(403);
  const body = (await response.json()) as { error: { message: string; data?: { code: string } } };
  expect(body.error.data?.code).toBe("forbidden");
  expect(body.error.message).toContain("cross-site request refused");
});
