import { afterEach, describe, expect, it } from "vitest";
import { startAnthropicMessagesServer, type AnthropicMessagesReply, type AnthropicMessagesServer } from "../testing/anthropic-messages-server";
import { failureOf } from "../testing/failure-of";
import { createAnthropicProvider } from "./anthropic-provider";
import type { ModelRequest } from "./types";

const API_KEY = "sk-ant-test-0123456789abcdef";
const fastRetry = { baseDelayMs: 1, maxDelayMs: 5, random: () => 0.5 };

let server: AnthropicMessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script: AnthropicMessagesReply[]): Promise<AnthropicMessagesServer> {
  server = await startAnthropicMessagesServer({ script });
  return server;
}

const request: ModelRequest = {
  model: "claude-test",
  messages: [
    { role: "system", content: "Be brief." },
    { role: "user", content: "Hi" },
  ],
};

describe("createAnthropicProvider", () => {
  it("sends system as a parameter, reads text, usage and stop reason from a JSON message", async () => {
    const running = await start([{ type: "message", text: "Hello!", usage: { input_tokens: 11, output_tokens: 3 } }]);
    const provider = createAnthropicProvider({ apiKey: API_KEY, baseURL: running.baseURL });
    const response = await provider.complete({ ...request, temperature: 0 });

    expect(response).toMatchObject({ content: "Hello!", toolCalls: [], finishReason: "stop", model: "claude-test" });
    expect(response.usage).toEqual({ prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 });
    const sent = running.messageRequests()[0]!;
    // SDK 1.x sends the key as a Bearer token; older versions used x-api-key.
    expect(sent.headers["x-api-key"] ?? sent.headers.authorization?.replace(/^Bearer /, "")).toBe(API_KEY);
    expect(sent.body).toMatchObject({ model: "claude-test", system: "Be brief.", max_tokens: 4096, temperature: 0, messages: [{ role: "user", content: "Hi" }] });
    expect(provider).toMatchObject({ name: "anthropic", kind: "anthropic" });
  });

  it("converts tool calls and tool results to tool_use and tool_result blocks, and tools to input schemas", async () => {
    const running = await start([{ type: "message", text: "Let me look.", toolUses: [{ id: "toolu_9", name: "search", input: { query: "rath" } }] }]);
    const provider = createAnthropicProvider({ apiKey: API_KEY, baseURL: running.baseURL });
    const response = await provider.complete({
      model: "claude-test",
      maxTokens: 100,
      messages: [
        { role: "system", content: "one" },
        { role: "user", content: "find it" },
        { role: "assistant", content: null, tool_calls: [
          { id: "toolu_1", type: "function", function: { name: "search", arguments: '{"query":"a"}' } },
          { id: "toolu_2", type: "function", function: { name: "search", arguments: '{"query":"b"}' } },
        ] },
        { role: "tool", tool_call_id: "toolu_1", name: "search", content: '{"ok":true}' },
        { role: "tool", tool_call_id: "toolu_2", name: "search", content: '{"ok":false}' },
        { role: "system", content: "two" },
      ],
      tools: [{ name: "search", description: "Search", parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } }],
    });

    expect(response.finishReason).toBe("tool_calls");
    expect(response.content).toBe("Let me look.");
    expect(response.toolCalls).toEqual([{ id: "toolu_9", type: "function", function: { name: "search", arguments: '{"query":"rath"}' } }]);
    const body = running.messageRequests()[0]!.body as Record<string, unknown>;
    expect(body.system).toBe("one\n\ntwo");
    expect(body.max_tokens).toBe(100);
    expect(body.messages).toEqual([
      { role: "user", content: "find it" },
      { role: "assistant", content: [
        { type: "tool_use", id: "toolu_1", name: "search", input: { query: "a" } },
        { type: "tool_use", id: "toolu_2", name: "search", input: { query: "b" } },
      ] },
      { role: "user", content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: '{"ok":true}' },
        { type: "tool_result", tool_use_id: "toolu_2", content: '{"ok":false}' },
      ] },
    ]);
    expect(body.tools).toEqual([{ name: "search", description: "Search", input_schema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } }]);
  });

  it("streams text deltas and reads usage from message_start and message_delta", async () => {
    const running = await start([{ type: "message", text: "Streaming hello", chunkSize: 6, usage: { input_tokens: 20, output_tokens: 4 } }]);
    const provider = createAnthropicProvider({ apiKey: API_KEY, baseURL: running.baseURL });
    const deltas: string[] = [];
    const response = await provider.complete(request, { onDelta: (text) => deltas.push(text) });
    expect(deltas).toEqual(["Stream", "ing he", "llo"]);
    expect(response.content).toBe("Streaming hello");
    expect(response.usage).toEqual({ prompt_tokens: 20, completion_tokens: 4, total_tokens: 24 });
    expect(response.finishReason).toBe("stop");
    expect(running.messageRequests()[0]!.body).toMatchObject({ stream: true });
  });

  it("assembles streamed tool_use input from input_json_delta pieces", async () => {
    const running = await start([
      { type: "message", chunkSize: 3, toolUses: [{ id: "toolu_a", name: "write_workspace_file", input: { path: "a.txt", content: "hello world" } }] },
    ]);
    const provider = createAnthropicProvider({ apiKey: API_KEY, baseURL: running.baseURL });
    const response = await provider.complete(request, { onDelta: () => undefined });
    expect(response.content).toBeNull();
    expect(response.finishReason).toBe("tool_calls");
    expect(response.toolCalls).toEqual([
      { id: "toolu_a", type: "function", function: { name: "write_workspace_file", arguments: '{"path":"a.txt","content":"hello world"}' } },
    ]);
  });

  it("maps max_tokens to length and refusal to content_filter", async () => {
    const running = await start([
      { type: "message", text: "cut", stopReason: "max_tokens" },
      { type: "message", text: "no", stopReason: "refusal" },
    ]);
    const provider = createAnthropicProvider({ apiKey: API_KEY, baseURL: running.baseURL });
    expect((await provider.complete(request)).finishReason).toBe("length");
    expect((await provider.complete(request, { onDelta: () => undefined })).finishReason).toBe("content_filter");
  });

  it("retries a 429 honouring Retry-After and then succeeds", async () => {
    const running = await start([
      { type: "error", status: 429, errorType: "rate_limit_error", message: "slow down", headers: { "retry-after": "0.004" } },
      { type: "message", text: "ok now" },
    ]);
    const retries: { attempt: number; delayMs: number; reason: string }[] = [];
    const provider = createAnthropicProvider({ apiKey: API_KEY, baseURL: running.baseURL, retry: { ...fastRetry, maxDelayMs: 1000 } });
    const response = await provider.complete(request, { onRetry: (info) => retries.push(info) });
    expect(response.content).toBe("ok now");
    expect(running.messageRequests()).toHaveLength(2);
    expect(retries).toEqual([{ attempt: 1, delayMs: 4, reason: "status 429" }]);
  });

  it("gives up on a persistent 529 after maxRetries + 1 requests, without the key in the message", async () => {
    const running = await start(Array.from({ length: 4 }, () => ({ type: "error" as const, status: 529, errorType: "overloaded_error", message: `Overloaded (key ${API_KEY})` })));
    const provider = createAnthropicProvider({ apiKey: API_KEY, baseURL: running.baseURL, name: "claude", maxRetries: 3, retry: fastRetry });
    const error = await failureOf(provider.complete(request));
    expect(running.messageRequests()).toHaveLength(4);
    expect(error.code).toBe("provider_error");
    expect(error.message).toBe("provider 'claude' failed with status 529 after 3 retries: overloaded_error: Overloaded (key [REDACTED])");
    expect(error.message).not.toContain(API_KEY);
  });

  it("fails a 400 at once", async () => {
    const running = await start([{ type: "error", status: 400, errorType: "invalid_request_error", message: "messages: roles must alternate" }, { type: "message", text: "unused" }]);
    const provider = createAnthropicProvider({ apiKey: API_KEY, baseURL: running.baseURL, retry: fastRetry });
    const error = await failureOf(provider.complete(request));
    expect(running.messageRequests()).toHaveLength(1);
    expect(error.message).toBe("provider 'anthropic' failed with status 400 (not retryable): invalid_request_error: messages: roles must alternate");
  });

  it("aborts in the middle of a stream instead of returning a partial answer", async () => {
    const running = await start([{ type: "message", text: "a long streamed answer", chunkSize: 2, chunkDelayMs: 15 }]);
    const provider = createAnthropicProvider({ apiKey: API_KEY, baseURL: running.baseURL, retry: fastRetry });
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

  it("aborts a hanging request through the signal", async () => {
    const running = await start([{ type: "hang" }]);
    const provider = createAnthropicProvider({ apiKey: API_KEY, baseURL: running.baseURL, retry: fastRetry });
    const controller = new AbortController();
    const pending = provider.complete(request, { signal: controller.signal, onDelta: () => undefined });
    setTimeout(() => controller.abort(), 20);
    const error = await failureOf(pending);
    expect(error.code).toBe("aborted");
  });
});
