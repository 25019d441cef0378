import { describe, expect, it } from "vitest";
import { RathError } from "../errors";
import { computeRetryDelay, isRetryableFailure, parseRetryAfter, withRetry, type ProviderFailure } from "./retry";

const headers = (values: Record<string, string>) => new Headers(values);
const status = (code: number, extra: Partial<ProviderFailure> = {}): ProviderFailure => ({ status: code, connection: false, aborted: false, message: `m${code}`, ...extra });

describe("parseRetryAfter", () => {
  it("reads retry-after-ms, seconds and HTTP dates", () => {
    expect(parseRetryAfter(headers({ "retry-after-ms": "250", "retry-after": "9" }))).toBe(250);
    expect(parseRetryAfter(headers({ "retry-after": "2" }))).toBe(2000);
    expect(parseRetryAfter(headers({ "retry-after": "0.5" }))).toBe(500);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter(headers({ "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" }), now)).toBe(3000);
    expect(parseRetryAfter(headers({ "retry-after": "soon" }))).toBeUndefined();
    expect(parseRetryAfter(headers({}))).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe("computeRetryDelay", () => {
  it("uses full jitter under an exponentially growing, capped ceiling", () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.999 };
    expect([1, 2, 3, 4, 5, 6].map((attempt) => computeRetryDelay(attempt, status(500), policy))).toEqual([99, 199, 399, 799, 999, 999]);
    expect(computeRetryDelay(3, status(500), { ...policy, random: () => 0 })).toBe(0);
  });

  it("honours Retry-After up to the cap", () => {
    expect(computeRetryDelay(1, status(429, { retryAfterMs: 700 }), { maxDelayMs: 1000, random: () => 0 })).toBe(700);
    expect(computeRetryDelay(1, status(429, { retryAfterMs: 7000 }), { maxDelayMs: 1000 })).toBe(1000);
  });
});

describe("isRetryableFailure", () => {
  it("retries 408, 409, 429, 5xx and connection errors only", () => {
    expect([400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 529].filter((code) => isRetryableFailure(status(code)))).toEqual([408, 409, 429, 500, 502, 503, 529]);
    expect(isRetryableFailure({ connection: true, aborted: false, message: "ECONNREFUSED" })).toBe(true);
    expect(isRetryableFailure({ connection: true, aborted: true, message: "aborted" })).toBe(false);
    expect(isRetryableFailure(status(500, { retryable: false }))).toBe(false);
  });
});

describe("withRetry", () => {
  it("retries with the computed delays and reports each retry", async () => {
    const slept: number[] = [];
    const reported: unknown[] = [];
    let calls = 0;
    const result = await withRetry(
      async () => {
        calls += 1;
        if (calls < 3) throw new Error(calls === 1 ? "first" : "second");
        return "done";
      },
      {
        provider: "p",
        policy: { baseDelayMs: 10, random: () => 0.5, sleep: async (ms) => void slept.push(ms) },
        options: { onRetry: (info) => reported.push(info) },
        describe: (error) => (String(error).includes("first") ? status(503) : { connection: true, aborted: false, message: "reset" }),
      },
    );
    expect(result).toBe("done");
    expect(slept).toEqual([5, 10]);
    expect(reported).toEqual([
      { attempt: 1, delayMs: 5, reason: "status 503" },
      { attempt: 2, delayMs: 10, reason: "connection error" },
    ]);
  });

  it("throws provider_unavailable for a connection failure that outlasts retries, redacting secrets", async () => {
    let calls = 0;
    const error = await withRetry(
      async () => {
        calls += 1;
        throw new Error("x");
      },
      {
        provider: "local",
        secrets: ["secret-key-value"],
        policy: { maxRetries: 1, sleep: async () => undefined },
        describe: () => ({ connection: true, aborted: false, message: "connect ECONNREFUSED (key secret-key-value)" }),
      },
    ).catch((caught: unknown) => caught);
    expect(calls).toBe(2);
    expect(error).toBeInstanceOf(RathError);
    expect((error as RathError).code).toBe("provider_unavailable");
    expect((error as RathError).message).toBe("provider 'local' could not reach the server after 1 retry: connect ECONNREFUSED (key [REDACTED])");
  });

  it("turns an abort during the backoff wait into RathError aborted", async () => {
    const controller = new AbortController();
    const error = await withRetry(
      async () => {
        throw new Error("x");
      },
      {
        provider: "p",
        policy: { baseDelayMs: 60_000, random: () => 1 },
        options: { signal: controller.signal, onRetry: () => controller.abort() },
        describe: () => status(500),
      },
    ).catch((caught: unknown) => caught);
    expect((error as RathError).code).toBe("aborted");
  });

  it("passes RathErrors thrown by the attempt through untouched", async () => {
    const original = new RathError("invalid_argument", "bad");
    const error = await withRetry(
      async () => {
        throw original;
      },
      { provider: "p", describe: () => status(500) },
    ).catch((caught: unknown) => caught);
    expect(error).toBe(original);
  });
});
