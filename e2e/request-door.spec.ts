/**
 * The studio's door over real HTTP against the production build, as an attacker would knock: a cross-site
 * `text/plain` POST (no preflight needed) is 403, a request whose Host is not the studio's (DNS rebinding) is 403
 * even with forwarded headers claiming localhost, and a body past the limit is 413 with the JSON error shape.
 * Node's http client is used so the Host header is exactly what the test says.
 */
import { expect, test } from "@playwright/test";
import http from "node:http";
import { readFileSync } from "node:fs";
import path from "node:path";
import { studioPort } from "./studio-server";

const PORT = studioPort();
const HELLO_SPEC = JSON.parse(readFileSync(path.join(process.cwd(), "server/engine/spec/examples/hello-agent.json"), "utf8")) as unknown;

interface Answer {
  status: number;
  body: string;
}

function send(method: string, pathname: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port: PORT, method, path: pathname, headers: { host: `127.0.0.1:${PORT}`, ...headers } }, (response) => {
      const parts: Buffer[] = [];
      response.on("data", (part: Buffer) => parts.push(part));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(parts).toString("utf8") }));
    });
    request.on("error", reject);
    if (body !== undefined) request.write(body);
    request.end();
  });
}

function apiError(answer: Answer): { code: string; message: string } {
  const parsed = JSON.parse(answer.body) as { error: { code: string | number; message: string; data?: { code: string } } };
  return { code: parsed.error.data?.code ?? String(parsed.error.code), message: parsed.error.message };
}

test("a cross-site text/plain POST is refused with 403 by the HTTP API and by tRPC; same-origin JSON works", async () => {
  const body = JSON.stringify({ spec: HELLO_SPEC, input: "from another site" });
  for (const pathname of ["/api/v1/runs", "/api/trpc/runs.start"]) {
    const answer = await send("POST", pathname, { origin: "https://evil.example", "content-type": "text/plain;charset=UTF-8" }, body);
    expect(answer.status, pathname).toBe(403);
    expect(apiError(answer), pathname).toMatchObject({ code: "forbidden", message: expect.stringContaining("cross-site request refused") });
  }
  const sameOrigin = await send("POST", "/api/v1/runs", { origin: `http://127.0.0.1:${PORT}`, "content-type": "application/json" }, body);
  expect(sameOrigin.status).toBe(201);
});

test("DNS rebinding: another Host name gets 403 for pages and the API, whatever X-Forwarded-* says", async () => {
  const forged = { host: `rebound.example:${PORT}`, "x-forwarded-host": `localhost:${PORT}`, "x-forwarded-for": "127.0.0.1" };
  for (const pathname of ["/", "/api/trpc/workflows.list", "/api/v1/runs/run_x"]) {
    const answer = await send("GET", pathname, forged);
    expect(answer.status, pathname).toBe(403);
    expect(answer.body, pathname).toContain("not to host 'rebound.example'");
  }
  expect((await send("GET", "/", { host: `localhost:${PORT}` })).status).toBe(200);
});

test("a run input past 1 MiB is 413 with the JSON error shape", async () => {
  const body = JSON.stringify({ spec: HELLO_SPEC, input: "x".repeat(1024 * 1024) });
  const answer = await send("POST", "/api/v1/runs", { "content-type": "application/json" }, body);
  expect(answer.status).toBe(413);
  expect(JSON.parse(answer.body)).toEqual({ error: { code: "payload_too_large", message: expect.stringContaining("RATH_MAX_RUN_INPUT_BYTES") } });
});
