import { describe, expect, it } from "vitest";
import { failureOf } from "../testing/failure-of";
import type { CompletionResult } from "./completion-result";
import type { ProviderFailure } from "./retry";
import { createRetryingProvider, type ProviderAttempt } from "./retrying-provider";
import type { ModelRequest } from "./types";

const request: ModelRequest = { model: "", messages: [{ role: "user", content: "Hi" }] };
const fastRetry = { baseDelayMs: 1, maxDelayMs: 1, random: () => 0, sleep: async () => undefined };
/** Every thrown value is a retryable 503 unless it says otherwise. */
const describe503 = (error: unknown): ProviderFailure => ({ status: 503, connection: false, aborted: false, message: String(error) });

function result(model: string): CompletionResult {
  return { content: "done", toolCalls: [], finishReason: "stop", usage: null, model };
}

function providerWith(attempt: ProviderAttempt, maxRetries?: number): ReturnType<typeof createRetryingProvider> {
  return createRetryingProvider({ name: "fake", kind: "openai", defaultModel: "default-model", maxRetries, retry: { ...fastRetry, maxRetries: 5 }, secrets: ["secret-key"], describe: describe503, attempt });
}

describe("createRetryingProvider", () => {
  it("uses the default model when the request names none, retries failures and adds the latency", async () => {
    const models: string[] = [];
    const retries: number[] = [];
    const provider = providerWith(async (_request, model) => {
      models.push(model);
      if (models.length < 3) throw new Error("busy");
      return result(model);
    });
    const response = await provider.complete(request, { onRetry: (info) => retries.push(info.attempt) });
    expect(models).toEqual(["default-model", "default-model", "default-model"]);
    expect(retries).toEqual([1, 2]);
    expect(response).toMatchObject({ content: "done", model: "default-model" });
    expect(response.latencyMs).toBeGreaterThanOrEqual(0);
    expect(provider).toMatchObject({ name: "fake", kind: "openai", defaultModel: "default-model" });
  });

  it("lets maxRetries win over retry.maxRetries and removes secrets from the message", async () => {
    let attempts = 0;
    const provider = providerWith(async () => {
      attempts += 1;
      throw new Error("echo secret-key");
    }, 1);
    const error = await failureOf(provider.complete(request));
    expect(attempts).toBe(2);
    expect(error.message).toBe("provider 'fake' failed with status 503 after 1 retry: Error: echo [REDACTED]");
  });

  it("does not retry once a delta reached the caller", async () => {
    let attempts = 0;
    const deltas: string[] = [];
    const provider = providerWith(async (_request, _model, options) => {
      attempts += 1;
      options.onDelta?.("par");
      throw new Error("stream broke");
    });
    const error = await failureOf(provider.complete(request, { onDelta: (text) => deltas.push(text) }));
    expect(attempts).toBe(1);
    expect(deltas).toEqual(["par"]);
    expect(error.message).toBe("provider 'fake' failed with status 503 (not retryable): Error: stream broke");
  });

  it("retries when streaming was asked for but no delta was emitted yet", async () => {
    let attempts = 0;
    const provider = providerWith(async (_request, model) => {
      attempts += 1;
      if (attempts === 1) throw new Error("dropped");
      return result(model);
    });
    await provider.complete({ ...request, model: "named" }, { onDelta: () => undefined });
    expect(attempts).toBe(2);
  });
});
