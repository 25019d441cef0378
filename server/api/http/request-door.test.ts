/**
 * The door of every app/api route (discovered from app/api, not listed by hand), called as Next.js calls it with
 * real Requests: a cross-site `text/plain` POST — the request a web page can send without a preflight — is 403, a
 * foreign Host header (DNS rebinding) is 403 on a loopback studio, tRPC takes JSON only, and bodies past their
 * limit are 413 with the JSON error shape while nothing is stored.
 */
import { afterEach, expect, it } from "vitest";
import { POST as postImports } from "../../../app/api/v1/imports/route";
import { POST as postRuns } from "../../../app/api/v1/runs/route";
import { POST as trpcPost } from "../../../app/api/trpc/[trpc]/route";
import { runToCompletion } from "../../engine/run-to-completion";
import { sharedRuntime } from "../../services/shared-runtime";
import { callerFor, exampleSpec, rowCounts } from "../testing/api-harness";
import { useTemporaryStudio } from "../testing/temporary-studio";
import { discoverAppApiRoutes } from "./testing/app-api-routes";

useTemporaryStudio("rath-api-door", { RATH_IN_PROCESS_WORKER: "0", RATH_HOST: "127.0.0.1", RATH_MAX_REQUEST_BYTES: undefined, RATH_MAX_IMPORT_BYTES: undefined });

afterEach(() => {
  delete process.env.RATH_MAX_REQUEST_BYTES;
  delete process.env.RATH_MAX_IMPORT_BYTES;
});

const STUDIO = "http://127.0.0.1:3000";

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string | number; message: string; data?: { code: string } } };
  // tRPC's envelope carries the API code in data; the plain HTTP API in error.code.
  return { code: body.error.data?.code ?? String(body.error.code), message: body.error.message };
}

it("every state-changing route refuses a cross-site text/plain POST with 403, and stores nothing", async () => {
  const routes = (await discoverAppApiRoutes()).filter((route) => !["GET", "HEAD", "OPTIONS"].includes(route.method));
  expect(routes.map((route) => `${route.method} ${route.file}`)).toEqual(
    expect.arrayContaining(["POST app/api/v1/runs/route.ts", "POST app/api/trpc/[trpc]/route.ts", "POST app/api/v1/imports/route.ts"]),
  );
  const { database } = await sharedRuntime();
  const before = await rowCounts(database);
  for (const route of routes) {
    const pathname = route.file.includes("[trpc]") ? "/api/trpc/runs.start" : route.pathname;
    const response = await route.handler(
      new Request(`${STUDIO}${pathname}`, {
        method: route.method,
        headers: { host: "127.0.0.1:3000", origin: "https://evil.example", "content-type": "text/plain" },
        body: JSON.stringify({ spec: exampleSpec("hello-agent"), input: "id" }),
      }),
      { params: Promise.resolve(route.params) },
    );
    expect(response.status, `${route.method} ${route.file}`).toBe(403);
    expect(await errorOf(response), route.file).toMatchObject({ code: "forbidden", message: expect.stringContaining("cross-site request refused") });
  }
  expect(await rowCounts(database)).toEqual(before);
});

it("every route refuses a foreign Host header on a loopback studio (DNS rebinding), forwarded headers notwithstanding", async () => {
  for (const route of await discoverAppApiRoutes()) {
    const state = !["GET", "HEAD", "OPTIONS"].includes(route.method);
    const response = await route.handler(
      new Request(`http://rebound.example:3000${route.pathname}`, {
        method: route.method,
        headers: { host: "rebound.example:3000", "x-forwarded-host": "127.0.0.1:3000", "x-forwarded-for": "127.0.0.1", ...(state ? { "content-type": "application/json" } : {}) },
        ...(state ? { body: "{}" } : {}),
      }),
      { params: Promise.resolve(route.params) },
    );
    expect(response.status, `${route.method} ${route.file}`).toBe(403);
    expect((await errorOf(response)).message, route.file).toContain("not to host 'rebound.example'");
  }
});

it("tRPC takes JSON bodies only: form data and octet-stream are 415, a batch gets one error per procedure", async () => {
  for (const [type, body] of [
    ["multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=x\r\n\r\n1\r\n--b--\r\n"],
    ["application/octet-stream", "abc"],
    ["text/plain", "{}"],
  ] as const) {
    const response = await trpcPost(new Request(`${STUDIO}/api/trpc/workflows.create`, { method: "POST", headers: { host: "127.0.0.1:3000", "content-type": type }, body }));
    expect(response.status, type).toBe(415);
    expect(await errorOf(response)).toMatchObject({ code: "unsupported_media_type", message: `expected content-type application/json; found ${type.split(";")[0]}` });
  }
  const batch = await trpcPost(
    new Request(`${STUDIO}/api/trpc/runs.cancel,runs.resume?batch=1`, { method: "POST", headers: { host: "127.0.0.1:3000", origin: "http://evil.example", "content-type": "application/json" }, body: "{}" }),
  );
  expect(batch.status).toBe(403);
  const envelopes = (await batch.json()) as Array<{ error: { data: { code: string; path: string; httpStatus: number } } }>;
  expect(envelopes.map((envelope) => [envelope.error.data.path, envelope.error.data.code, envelope.error.data.httpStatus])).toEqual([
    ["runs.cancel", "forbidden", 403],
    ["runs.resume", "forbidden", 403],
  ]);
});

it("a body past RATH_MAX_REQUEST_BYTES is 413 whether it announces its length or streams without one; nothing is stored", async () => {
  process.env.RATH_MAX_REQUEST_BYTES = "64KB";
  const { database } = await sharedRuntime();
  const before = await rowCounts(database);
  const big = JSON.stringify({ spec: exampleSpec("hello-agent"), input: "x".repeat(70 * 1024) });
  const announced = await postRuns(new Request(`${STUDIO}/api/v1/runs`, { method: "POST", headers: { host: "127.0.0.1:3000", "content-type": "application/json", "content-length": String(Buffer.byteLength(big)) }, body: big }));
  const bytes = new TextEncoder().encode(big);
  const streamed = await postRuns(
    new Request(`${STUDIO}/api/v1/runs`, {
      method: "POST",
      headers: { host: "127.0.0.1:3000", "content-type": "application/json" },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          for (let offset = 0; offset < bytes.length; offset += 8192) controller.enqueue(bytes.slice(offset, offset + 8192));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit),
  );
  const trpc = await trpcPost(new Request(`${STUDIO}/api/trpc/runs.start`, { method: "POST", headers: { host: "127.0.0.1:3000", "content-type": "application/json" }, body: big }));
  for (const response of [announced, streamed, trpc]) {
    expect(response.status).toBe(413);
    expect(await errorOf(response)).toMatchObject({ code: "payload_too_large", message: expect.stringContaining("the limit is 65,536 bytes (64 KiB) (set RATH_MAX_REQUEST_BYTES") });
  }
  expect(await rowCounts(database)).toEqual(before);
});

it("POST /api/v1/imports streams a bundle in: 201 under RATH_MAX_IMPORT_BYTES, 413 past it with nothing stored", async () => {
  const { database } = await sharedRuntime();
  const api = callerFor(database);
  const { run } = await api.runs.start({ spec: exampleSpec("hello-agent"), input: "to import" });
  await runToCompletion(database, run.id);
  const exported = await api.transfer.exportRun({ runId: run.id });
  if (exported.dialect !== "rath") throw new Error("expected a bundle");
  const size = Buffer.byteLength(exported.bundle.content);
  const send = () =>
    postImports(new Request(`${STUDIO}/api/v1/imports?fileName=run.jsonl`, { method: "POST", headers: { host: "127.0.0.1:3000", "content-type": "application/x-ndjson" }, body: exported.bundle.content }));

  process.env.RATH_MAX_IMPORT_BYTES = String(size - 1);
  const before = await rowCounts(database);
  const refused = await send();
  expect(refused.status).toBe(413);
  const body = (await refused.json()) as { error: { code: string; message: string } };
  expect(Object.keys(body.error).sort()).toEqual(["code", "message"]);
  expect(body.error.code).toBe("payload_too_large");
  expect(body.error.message).toContain("the run bundle is too large");
  expect(await rowCounts(database)).toEqual(before);

  process.env.RATH_MAX_IMPORT_BYTES = String(size);
  const imported = await send();
  expect(imported.status).toBe(201);
  const created = (await imported.json()) as { runId: string; status: string };
  expect(created.status).toBe("succeeded");
  expect(imported.headers.get("location")).toBe(`/api/v1/runs/${created.runId}`);

  const malformed = await postImports(new Request(`${STUDIO}/api/v1/imports?fileName=broken.jsonl`, { method: "POST", headers: { host: "127.0.0.1:3000", "content-type": "application/x-ndjson" }, body: "{not json\n" }));
  expect(malformed.status).toBe(400);
  expect(await errorOf(malformed)).toMatchObject({ code: "invalid_file", message: expect.stringContaining("broken.jsonl") });
  const wrongType = await postImports(new Request(`${STUDIO}/api/v1/imports`, { method: "POST", headers: { host: "127.0.0.1:3000", "content-type": "text/plain" }, body: exported.bundle.content }));
  expect(wrongType.status).toBe(415);
});
