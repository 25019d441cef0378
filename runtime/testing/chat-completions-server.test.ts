import { afterEach, describe, expect, it } from "vitest";
import { startChatCompletionsServer, type ChatCompletionsServer, type ChatCompletionsServerOptions } from "./chat-completions-server";

let server: ChatCompletionsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: ChatCompletionsServerOptions): Promise<ChatCompletionsServer> {
  server = await startChatCompletionsServer(options);
  return server;
}

function post(running: ChatCompletionsServer, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${running.baseURL}/chat/completions`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

/** The `data:` payloads of an SSE body, in order. */
function dataLines(text: string): string[] {
  return text
    .split("\n\n")
    .filter((event) => event.trim() !== "")
    .map((event) => {
      expect(event.startsWith("data: ")).toBe(true);
      return event.slice("data: ".length);
    });
}

describe("startChatCompletionsServer", () => {
  it("listens on 127.0.0.1 with a free port and answers JSON completions, recording the request", async () => {
    const running = await start({ script: [{ type: "completion", content: "hi", usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }] });
    expect(running.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await post(running, { model: "m1", messages: [{ role: "user", content: "hello" }] }, { authorization: "Bearer test-key" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: "chatcmpl-scripted-1",
      object: "chat.completion",
      created: 0,
      model: "m1",
      choices: [{ index: 0, message: { role: "assistant", content: "hi", refusal: null }, finish_reason: "stop", logprobs: null }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
    expect(running.requests).toHaveLength(1);
    expect(running.requests[0]).toMatchObject({ method: "POST", path: "/v1/chat/completions", body: { model: "m1" } });
    expect(running.requests[0]!.headers.authorization).toBe("Bearer test-key");
  });

  it("streams content and tool call pieces as SSE, then usage (when asked) and [DONE]", async () => {
    const running = await start({ script: [{ type: "completion", content: "abcdef", chunkSize: 3, toolCalls: [{ id: "c1", name: "f", arguments: '{"a":1}' }], usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 } }] });
    const response = await post(running, { model: "m", stream: true, stream_options: { include_usage: true }, messages: [] });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const lines = dataLines(await response.text());
    expect(lines[lines.length - 1]).toBe("[DONE]");
    const chunks = lines.slice(0, -1).map((line) => JSON.parse(line) as { choices: { delta: Record<string, unknown>; finish_reason: string | null }[]; usage?: unknown });
    expect(chunks.map((chunk) => chunk.choices[0]?.delta ?? null)).toEqual([
      { role: "assistant", content: "" },
      { content: "abc" },
      { content: "def" },
      { tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "f", arguments: "" } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"a' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '":1' } }] },
      { tool_calls: [{ index: 0, function: { arguments: "}" } }] },
      {},
      null,
    ]);
    expect(chunks[7]?.choices[0]?.finish_reason).toBe("tool_calls");
    expect(chunks[8]).toMatchObject({ choices: [], usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 } });
  });

  it("sends no usage chunk unless include_usage is set", async () => {
    const running = await start({ script: [{ type: "completion", content: "x" }] });
    const lines = dataLines(await (await post(running, { model: "m", stream: true, messages: [] })).text());
    expect(lines.some((line) => line.includes('"usage"'))).toBe(false);
    expect(lines[lines.length - 1]).toBe("[DONE]");
  });

  it("answers scripted errors with status, headers and an OpenAI error body", async () => {
    const running = await start({ script: [{ type: "error", status: 429, message: "slow down", errorType: "rate_limit_error", headers: { "retry-after": "2" } }] });
    const response = await post(running, { model: "m", messages: [] });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("2");
    expect(await response.json()).toEqual({ error: { message: "slow down", type: "rate_limit_error", param: null, code: null } });
  });

  it("says clearly when the script has run out", async () => {
    const running = await start({ script: [] });
    const response = await post(running, { model: "m", messages: [] });
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe("test script exhausted: request #1 has no scripted reply (script length 0)");
  });

  it("accepts a function script that sees each request", async () => {
    const running = await start({ script: (request, index) => ({ type: "completion", content: `#${index} ${(request.body as { model: string }).model}` }) });
    const first = (await (await post(running, { model: "a", messages: [] })).json()) as { choices: { message: { content: string } }[] };
    const second = (await (await post(running, { model: "b", messages: [] })).json()) as { choices: { message: { content: string } }[] };
    expect([first.choices[0]?.message.content, second.choices[0]?.message.content]).toEqual(["#0 a", "#1 b"]);
  });

  it("lists models and 404s unknown routes", async () => {
    const running = await start({ script: [], models: ["m-1", "m-2"] });
    const models = (await (await fetch(`${running.baseURL}/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((model) => model.id)).toEqual(["m-1", "m-2"]);
    const missing = await fetch(`${running.origin}/v2/nothing`);
    expect(missing.status).toBe(404);
    expect(running.completionRequests()).toHaveLength(0);
    expect(running.requests).toHaveLength(2);
  });

  it("drops the connection for a disconnect reply", async () => {
    const running = await start({ script: [{ type: "disconnect" }] });
    await expect(post(running, { model: "m", messages: [] })).rejects.toThrow();
  });
});
