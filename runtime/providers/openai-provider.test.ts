import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { isRathError } from "../errors";
import { startChatCompletionsServer, type ChatCompletionsReply, type ChatCompletionsServer } from "../testing/chat-completions-server";
import { failureOf } from "../testing/failure-of";
import { createOpenAIProvider } from "./openai-provider";
import type { ModelRequest } from "./types";

const API_KEY = "sk-test-0123456789abcdef";
const fastRetry = { baseDelayMs: 1, maxDelayMs: 5, random: () => 0.5 };

let server: ChatCompletionsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script: ChatCompletionsReply[]): Promise<ChatCompletionsServer> {
  server = await startChatCompletionsServer({ script });
  return server;
}

const request: ModelRequest = {
  model: "gpt-test",
  messages: [
    { role: "system", content: "Be brief." },
    { role: "user", content: "Hi" },
  ],
};

describe("createOpenAIProvider", () => {
  it("sends the request and reads a JSON completion with usage and latency", async () => {
    const running = await start([{ type: "completion", content: "Hello there", usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } }]);
    const provider = createOpenAIProvider({ apiKey: API_KEY, baseURL: running.baseURL });
    const response = await provider.complete({ ...request, temperature: 0.2, maxTokens: 50 });

    expect(response).toMatchObject({ content: "Hello there", toolCalls: [], finishReason: "stop", model: "gpt-test" });
    expect(response.usage).toEqual({ prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 });
    expect(response.latencyMs).toBeGreaterThanOrEqual(0);
    const sent = running.completionRequests()[0]!;
    expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent.body).toMatchObject({ model: "gpt-test", messages: request.messages, temperature: 0.2, max_tokens: 50 });
    expect((sent.body as { stream?: unknown }).stream).toBeFalsy();
    expect(provider).toMatchObject({ name: "openai", kind: "openai" });
  });

  it("sends the key in a custom header (Azure's api-key) instead of Authorization when asked", async () => {
    const running = await start([{ type: "completion", content: "azure" }]);
    const provider = createOpenAIProvider({ apiKey: API_KEY, baseURL: running.baseURL, apiKeyHeader: "api-key" });
    await provider.complete(request);
    const headers = running.completionRequests()[0]!.headers;
    expect(headers["api-key"]).toBe(API_KEY);
    expect(headers.authorization).toBeUndefined();
  });

  it("uses the default model when the request names none", async () => {
    const running = await start([{ type: "completion", content: "ok" }]);
    const provider = createOpenAIProvider({ apiKey: API_KEY, baseURL: running.baseURL, defaultModel: "local-llama", name: "ollama" });
    const response = await provider.complete({ ...request, model: "" });
    expect((running.completionRequests()[0]!.body as { model: string }).model).toBe("local-llama");
    expect(response.model).toBe("local-llama");
    expect(provider.name).toBe("ollama");
  });

  it("sends tools and assistant tool calls and reads tool calls from a JSON completion", async () => {
    const running = await start([{ type: "completion", toolCalls: [{ id: "call_a", name: "search", arguments: { query: "rath" } }] }]);
    const provider = createOpenAIProvider({ apiKey: API_KEY, baseURL: running.baseURL });
    const response = await provider.complete({
      model: "gpt-test",
      messages: [
        { role: "user", content: "find" },
        { role: "assistant", content: null, tool_calls: [{ id: "call_0", type: "function", function: { name: "search", arguments: '{"query":"x"}' } }] },
        { role: "tool", tool_call_id: "call_0", name: "search", content: '{"ok":true}' },
      ],
      tools: [{ name: "search", description: "Search things", parameters: { type: "object", properties: { query: { type: "string" } } } }],
    });
    expect(response.finishReason).toBe("tool_calls");
    expect(response.content).toBeNull();
    expect(response.toolCalls).toEqual([{ id: "call_a", type: "function", function: { name: "search", arguments: '{"query":"rath"}' } }]);
    const body = running.completionRequests()[0]!.body as { tools: unknown; messages: unknown[] };
    expect(body.tools).toEqual([
      { type: "function", function: { name: "search", description: "Search things", parameters: { type: "object", properties: { query: { type: "string" } } } } },
    ]);
    expect(body.messages[1]).toEqual({ role: "assistant", content: null, tool_calls: [{ id: "call_0", type: "function", function: { name: "search", arguments: '{"query":"x"}' } }] });
    expect(body.messages[2]).toEqual({ role: "tool", tool_call_id: "call_0", content: '{"ok":true}' });
  });

  it("streams text deltas over SSE and reads the final usage chunk", async () => {
    const running = await start([{ type: "completion", content: "Hello streaming world", chunkSize: 5, usage: { prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 } }]);
    const provider = createOpenAIProvider({ apiKey: API_KEY, baseURL: running.baseURL });
    const deltas: string[] = [];
    const response = await provider.complete(request, { onDelta: (text) => deltas.push(text) });

    expect(deltas).toEqual(["Hello", " stre", "aming", " worl", "d"]);
    expect(response.content).toBe("Hello streaming world");
    expect(response.usage).toEqual({ prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 });
    expect(response.finishReason).toBe("stop");
    expect(running.completionRequests()[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it("assembles tool calls streamed in pieces, by index", async () => {
    const running = await start([
      {
        type: "completion",
        chunkSize: 3,
        toolCalls: [
          { id: "call_1", name: "read_workspace_file", arguments: { path: "notes/today.md" } },
          { id: "call_2", name: "list_workspace_files", arguments: { path: "." } },
        ],
      },
    ]);
    const provider = createOpenAIProvider({ apiKey: API_KEY, baseURL: running.baseURL });
    const deltas: string[] = [];
    const response = await provider.complete(request, { onDelta: (text) => deltas.push(text) });
    expect(deltas).toEqual([]);
    expect(response.content).toBeNull();
    expect(response.finishReason).toBe("tool_calls");
    expect(response.toolCalls).toEqual([
      { id: "call_1", type: "function", function: { name: "read_workspace_file", arguments: '{"path":"notes/today.md"}' } },
      { id: "call_2", type: "function", function: { name: "list_workspace_files", arguments: '{"path":"."}' } },
    ]);
  });

  it("maps finish reasons length and content_filter", async () => {
    const running = await start([
      { type: "completion", content: "cut", finishReason: "length" },
      { type: "completion", content: "", finishReason: "content_filter" },
    ]);
    const provider = createOpenAIProvider({ apiKey: API_KEY, baseURL: running.baseURL });
    expect((await provider.complete(request)).finishReason).toBe("length");
    expect((await provider.complete(request, { onDelta: () => undefined })).finishReason).toBe("content_filter");
  });

  it("retries a 429 after the Retry-After delay and then succeeds", async () => {
    const running = await start([
      { type: "error", status: 429, message: "Rate limit reached", headers: { "retry-after-ms": "3" } },
      { type: "completion", content: "after the wait" },
    ]);
    const retries: { attempt: number; delayMs: number; reason: string }[] = [];
    const sleeps: number[] = [];
    const provider = createOpenAIProvider({
      apiKey: API_KEY,
      baseURL: running.baseURL,
      retry: { ...fastRetry, maxDelayMs: 1000, sleep: async (ms) => void sleeps.push(ms) },
    });
    const response = await provider.complete(request, { onRetry: (info) => retries.push(info) });
    expect(response.content).toBe("after the wait");
    expect(running.completionRequests()).toHaveLength(2);
    expect(retries).toEqual([{ attempt: 1, delayMs: 3, reason: "status 429" }]);
    expect(sleeps).toEqual([3]);
  });

  it("honours Retry-After in seconds, capped by maxDelayMs", async () => {
    const running = await start([
      { type: "error", status: 503, headers: { "retry-after": "120" } },
      { type: "completion", content: "ok" },
    ]);
    const sleeps: number[] = [];
    const provider = createOpenAIProvider({ apiKey: API_KEY, baseURL: running.baseURL, retry: { maxDelayMs: 40, sleep: async (ms) => void sleeps.push(ms) } });
    await provider.complete(request);
    expect(sleeps).toEqual([40]);
  });

  it("gives up after maxRetries + 1 requests on a persistent 500 with a message that names provider, status and cause", async () => {
    const running = await start(Array.from({ length: 5 }, () => ({ type: "error" as const, status: 500, message: "The server had an error while processing your request" })));
    const retries: number[] = [];
    const provider = createOpenAIProvider({ apiKey: API_KEY, baseURL: running.baseURL, name: "my-openai", maxRetries: 2, retry: fastRetry });
    const error = await failureOf(provider.complete(request, { onRetry: (info) => retries.push(info.delayMs) }));

    expect(running.completionRequests()).toHaveLength(3);
    expect(retries).toEqual([0, 1]);
    expect(error.code).toBe("provider_error");
    expect(error.message).toBe("provider 'my-openai' failed with status 500 after 2 retries: The server had an error while processing your request");
    expect(error.message).not.toContain(API_KEY);
    expect(error.details).toMatchObject({ provider: "my-openai", status: 500, retries: 2 });
  });

  it("never puts the API key in the error message, even when the server echoes it", async () => {
    const running = await start([{ type: "error", status: 401, message: `Incorrect API key provided: ${API_KEY}` }]);
    const provider = createOpenAIProvider({ apiKey: API_KEY, baseURL: running.baseURL, retry: fastRetry });
    const error = await failureOf(provider.complete(request));
    expect(error.message).not.toContain(API_KEY);
    expect(error.message).toContain("Incorrect API key provided: [REDACTED]");
  });

  it("fails a non-retryable 400 after one request", async () => {
    const running = await start([
      { type: "error", status: 400, message: "Invalid value for 'temperature'", errorType: "invalid_request_error" },
      { type: "completion", content: "never reached" },
    ]);
    const provider = createOpenAIProvider({ apiKey: API_KEY, baseURL: running.baseURL, retry: fastRetry });
    const error = await failureOf(provider.complete(request));
    expect(running.completionRequests()).toHaveLength(1);
    expect(error.code).toBe("provider_error");
    expect(error.message).toBe("provider 'openai' failed with status 400 (not retryable): Invalid value for 'temperature'");
  });

  it("reports provider_unavailable when the server cannot be reached", async () => {
    const running = await start([]);
    const baseURL = running.baseURL;
    await running.close();
    server = undefined;
    const retries: string[] = [];
    const provider = createOpenAIProvider({ apiKey: API_KEY, baseURL, maxRetries: 1, retry: fastRetry });
    const error = await failureOf(provider.complete(request, { onRetry: (info) => retries.push(info.reason) }));
    expect(error.code).toBe("provider_unavailable");
    expect(error.message).toMatch(/^provider 'openai' could not reach the server after 1 retry: /);
    expect(retries).toEqual(["connection error"]);
  });

  it("retries a dropped connection before any delta was streamed", async () => {
    const running = await start([{ type: "disconnect" }, { type: "completion", content: "second time" }]);
    const provider = createOpenAIProvider({ apiKey: API_KEY, baseURL: running.baseURL, retry: fastRetry });
    const deltas: string[] = [];
    const response = await provider.complete(request, { onDelta: (text) => deltas.push(text) });
    expect(response.content).toBe("second time");
    expect(deltas.join("")).toBe("second time");
    expect(running.completionRequests()).toHaveLength(2);
  });

  it("does not retry a stream that broke after deltas were emitted", async () => {
    const running = await start([
      { type: "completion", content: "partial answer here", chunkSize: 4, disconnectAfterChunks: 3 },
      { type: "completion", content: "must not be requested" },
    ]);
    const provider = createOpenAIProvider({ apiKey: API_KEY, baseURL: running.baseURL, retry: fastRetry });
    const deltas: string[] = [];
    const error = await failureOf(provider.complete(request, { onDelta: (text) => deltas.push(text) }));
    expect(deltas).toEqual(["part", "ial "]);
    expect(running.completionRequests()).toHaveLength(1);
    expect(["provider_error", "provider_unavailable"]).toContain(error.code);
  });

  it("aborts a hanging request through the signal", async () => {
    const running = await start([{ type: "hang" }]);
    const provider = createOpenAIProvider({ apiKey: API_KEY, baseURL: running.baseURL, retry: fastRetry });
    const controller = new AbortController();
    const pending = provider.complete(request, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const error = await failureOf(pending);
    expect(error.code).toBe("aborted");
    expect(running.completionRequests()).toHaveLength(1);
  });

  it("leaves no abort listener on the caller's signal after each request (one signal serves a whole run)", async () => {
    const replies: ChatCompletionsReply[] = Array.from({ length: 12 }, () => ({ type: "completion", content: "ok" }));
    const running = await start(replies);
    const provider = createOpenAIProvider({ apiKey: API_KEY, baseURL: running.baseURL, retry: fastRetry });
    const controller = new AbortController();
    for (let call = 0; call < 6; call++) await provider.complete(request, { signal: controller.signal });
    for (let call = 0; call < 6; call++) await provider.complete(request, { signal: controller.signal, onDelta: () => undefined });
    expect(running.completionRequests()).toHaveLength(12);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("aborts in the middle of a stream instead of returning a partial answer", async () => {
    const running = await start([{ type: "completion", content: "a long streamed answer", chunkSize: 2, chunkDelayMs: 15 }]);
    const provider = createOpenAIProvider({ apiKey: API_KEY, baseURL: running.baseURL, retry: fastRetry });
    const controller = new AbortController();
    const deltas: string[] = [];
    const error = await failureOf(
      provider.complete(request, {
        signal: controller.signal,
        onDelta: (text) => {
          deltas.push(text);
          controller.abort();
        },
      }),
    );
    expect(error.code).toBe("aborted");
    expect(deltas).toEqual(["a "]);
  });

  it("aborts while waiting between retries", async () => {
    const running = await start([{ type: "error", status: 429, headers: { "retry-after": "30" } }, { type: "completion", content: "late" }]);
    const provider = createOpenAIProvider({ apiKey: API_KEY, baseURL: running.baseURL, retry: { maxDelayMs: 60_000 } });
    const controller = new AbortController();
    const error = await failureOf(provider.complete(request, { signal: controller.signal, onRetry: () => setTimeout(() => controller.abort(), 5) }));
    expect(isRathError(error, "aborted")).toBe(true);
    expect(running.completionRequests()).toHaveLength(1);
  });
});
