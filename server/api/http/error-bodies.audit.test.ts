/**
 * What a failure looks like on the wire, for both doors (plain HTTP and tRPC over the Fetch adapter): an unexpected
 * crash inside a service is a 500 whose body has a code, a message and a reference id and nothing from inside
 * (no stack, no file path, no original message); unknown keys in the HTTP body are refused per key.
 */
import { afterEach, expect, it, vi } from "vitest";
import type { Database } from "../../db/database";
import { describeEachDatabase } from "../../db/testing/test-databases";
import { QUEUE_ONLY_EXECUTOR } from "../../services/run-executor";
import { exampleSpec, rowCounts } from "../testing/api-harness";
import type { ApiServices } from "./api-door";
import { getRun, getRunEvents, postRun } from "./runs-endpoints";
import { loopbackPolicy } from "../../auth/testing/policies";
import { handleTrpcRequest } from "./trpc-handler";

afterEach(() => vi.restoreAllMocks());

const INSIDE = "secret-internal-detail /srv/rath/server/db/run-store.ts:47";

/** A database whose every use crashes like a bug deep inside the store would. */
const brokenDatabase = new Proxy({} as Database, {
  get() {
    throw new TypeError(`Cannot read properties of undefined (reading 'run') at ${INSIDE}`);
  },
});
const brokenContext = async (): Promise<ApiServices> => ({ database: brokenDatabase, executor: QUEUE_ONLY_EXECUTOR });

/** Asserts a 500 body carries nothing from inside the server. */
function expectOpaque(text: string): void {
  expect(text).not.toContain("secret-internal-detail");
  expect(text).not.toMatch(/\.ts:\d+|\bat \w|stack|TypeError|Cannot read/);
}

it("HTTP: a crash inside a service is a 500 {error:{code:'internal',message,reference}} with nothing from inside", async () => {
  const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
  const responses = [
    await postRun(new Request("http://localhost/api/v1/runs", { method: "POST", body: JSON.stringify({ spec: exampleSpec("hello-agent"), input: "x" }) }), brokenContext),
    await getRun("run_x", brokenContext),
    await getRunEvents("run_x", new URL("http://localhost/api/v1/runs/run_x/events"), brokenContext),
  ];
  for (const response of responses) {
    expect(response.status).toBe(500);
    const text = await response.text();
    expectOpaque(text);
    const body = JSON.parse(text) as { error: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(["error"]);
    expect(Object.keys(body.error).sort()).toEqual(["code", "message", "reference"]);
    expect(body.error.code).toBe("internal");
    expect(String(body.error.message)).toContain(String(body.error.reference));
  }
  expect(log).toHaveBeenCalledTimes(3);
  expect(String(log.mock.calls[0]?.[0])).toContain("secret-internal-detail");
});

it("tRPC: a crash inside a procedure is a 500 with the mapped data and no stack (also in development mode)", async () => {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  expect(process.env.NODE_ENV).not.toBe("production");
  const query = await handleTrpcRequest(new Request(`http://localhost/api/trpc/runs.get?input=${encodeURIComponent(JSON.stringify({ runId: "run_x" }))}`), {
    services: brokenContext,
    policy: loopbackPolicy(),
  });
  const mutation = await handleTrpcRequest(
    new Request("http://localhost/api/trpc/runs.start", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ spec: exampleSpec("hello-agent"), input: "x" }),
    }),
    { services: brokenContext, policy: loopbackPolicy() },
  );
  for (const response of [query, mutation]) {
    expect(response.status).toBe(500);
    const text = await response.text();
    expectOpaque(text);
    const error = (JSON.parse(text) as { error: { message: string; data: Record<string, unknown> } }).error;
    expect(error.data).toMatchObject({ code: "internal", trpcCode: "INTERNAL_SERVER_ERROR", httpStatus: 500 });
    expect(typeof error.data.reference).toBe("string");
    expect(error.data).not.toHaveProperty("stack");
  }
});

describeEachDatabase("HTTP body validation", (open) => {
  it("refuses unknown keys in POST /api/v1/runs per key, and writes nothing", async () => {
    const { database } = await open();
    const context = async (): Promise<ApiServices> => ({ database, executor: QUEUE_ONLY_EXECUTOR });
    const before = await rowCounts(database);
    const response = await postRun(
      new Request("http://localhost/api/v1/runs", { method: "POST", body: JSON.stringify({ spec: exampleSpec("hello-agent"), inputs: "typo", prority: 5 }) }),
      context,
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string; formErrors: string[] } };
    expect(body.error.code).toBe("invalid_argument");
    expect(body.error.formErrors.join(" ")).toMatch(/inputs.*prority|prority.*inputs/);
    expect(await rowCounts(database)).toEqual(before);
  });
});
