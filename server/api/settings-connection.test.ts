import { afterAll, beforeAll, expect, it } from "vitest";
import { startAnthropicMessagesServer, type AnthropicMessagesServer } from "../../runtime/testing/anthropic-messages-server";
import { startChatCompletionsServer, type ChatCompletionsServer } from "../../runtime/testing/chat-completions-server";
import { describeEachDatabase } from "../db/testing/test-databases";
import { callerFor, expectApiError, rowCounts } from "./testing/api-harness";

const KEY = "sk-test-connection-0123456789";
let openai: ChatCompletionsServer;
let anthropic: AnthropicMessagesServer;

beforeAll(async () => {
  openai = await startChatCompletionsServer({
    script: (request) =>
      request.headers.authorization === `Bearer ${KEY}`
        ? { type: "completion", content: `pong (echo ${KEY})`, usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } }
        : { type: "error", status: 401, message: "Incorrect API key provided", code: "invalid_api_key", errorType: "invalid_request_error" },
  });
  anthropic = await startAnthropicMessagesServer({
    script: (request) => (JSON.stringify(request.headers).includes("sk-ant-good-000000") ? { type: "message", text: "Hello from Claude's wire twin." } : { type: "error", status: 529, message: "Overloaded" }),
  });
});

afterAll(async () => {
  await openai.close();
  await anthropic.close();
});

describeEachDatabase("settings.providers.testConnection and settings.modelPrices", (open) => {
  it("makes exactly one request to an OpenAI-compatible server and returns its answer, never the key", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const saved = await api.settings.providers.upsert({ name: "wire", kind: "openai", baseUrl: openai.baseURL, model: "scripted-model", apiKey: KEY });
    expect(JSON.stringify(saved)).not.toContain(KEY);
    const before = openai.completionRequests().length;
    const result = await api.settings.providers.testConnection({ name: "wire" });
    expect(openai.completionRequests().length - before).toBe(1);
    expect(result).toMatchObject({ ok: true, provider: "wire", model: "scripted-model", totalTokens: 15 });
    // A provider that echoes the key gets it redacted before the answer leaves the server.
    expect(result.ok && result.answer).toBe("pong (echo [REDACTED])");
    expect(JSON.stringify(await api.settings.providers.list())).not.toContain(KEY);
  });

  it("reports the provider's error after one attempt (no retry), and a missing setting as not found", async () => {
    const { database } = await open();
    const api = callerFor(database);
    await api.settings.providers.upsert({ name: "wrong", kind: "openai", baseUrl: openai.baseURL, model: "scripted-model", apiKey: "sk-wrong-key-000000" });
    const before = openai.completionRequests().length;
    const result = await api.settings.providers.testConnection({ name: "wrong" });
    expect(openai.completionRequests().length - before).toBe(1);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain("Incorrect API key provided");
    await expectApiError(api.settings.providers.testConnection({ name: "nobody" }), "NOT_FOUND");
  });

  it("tests an Anthropic provider against the Messages wire server, and the scripted demo provider offline", async () => {
    const { database } = await open();
    const api = callerFor(database);
    await api.settings.providers.upsert({ name: "claude", kind: "anthropic", baseUrl: anthropic.baseURL, model: "scripted-claude", apiKey: "sk-ant-good-000000" });
    const ok = await api.settings.providers.testConnection({ name: "claude" });
    expect(ok, JSON.stringify(ok)).toMatchObject({ ok: true, answer: "Hello from Claude's wire twin." });
    await api.settings.providers.upsert({ name: "claude", kind: "anthropic", baseUrl: anthropic.baseURL, model: "scripted-claude", apiKey: "sk-ant-other-000000" });
    const overloaded = await api.settings.providers.testConnection({ name: "claude" });
    expect(overloaded.ok).toBe(false);
    expect(!overloaded.ok && overloaded.error).toContain("Overloaded");
    const demo = await api.settings.providers.testConnection({ name: "scripted" });
    expect(demo.ok && demo.answer).toContain("(scripted demo)");
  });

  it("keeps a model price table: upsert, list, replace, delete; bad prices change nothing", async () => {
    const { database } = await open();
    const api = callerFor(database);
    await api.settings.modelPrices.upsert({ model: "gpt-4o-mini", inputPerMillion: 0.15, outputPerMillion: 0.6 });
    await api.settings.modelPrices.upsert({ model: "claude-sonnet", inputPerMillion: 3, outputPerMillion: 15 });
    await api.settings.modelPrices.upsert({ model: "gpt-4o-mini", inputPerMillion: 0.2, outputPerMillion: 0.8 });
    expect((await api.settings.modelPrices.list()).map(({ model, inputPerMillion, outputPerMillion }) => [model, inputPerMillion, outputPerMillion])).toEqual([
      ["claude-sonnet", 3, 15],
      ["gpt-4o-mini", 0.2, 0.8],
    ]);
    const before = await rowCounts(database);
    await expectApiError(api.settings.modelPrices.upsert({ model: "x", inputPerMillion: -1, outputPerMillion: 1 }), "BAD_REQUEST");
    await expectApiError(api.settings.modelPrices.upsert({ model: "", inputPerMillion: 1, outputPerMillion: 1 }), "BAD_REQUEST");
    expect(await rowCounts(database)).toEqual(before);
    await api.settings.modelPrices.delete({ model: "claude-sonnet" });
    expect((await api.settings.modelPrices.list()).map((price) => price.model)).toEqual(["gpt-4o-mini"]);
    await expectApiError(api.settings.modelPrices.delete({ model: "claude-sonnet" }), "NOT_FOUND");
  });
});
