import { afterEach, describe, expect, it } from "vitest";
import { startAnthropicMessagesServer, type AnthropicMessagesReply, type AnthropicMessagesServer } from "./anthropic-messages-server";

let server: AnthropicMessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script: AnthropicMessagesReply[]): Promise<AnthropicMessagesServer> {
  server = await startAnthropicMessagesServer({ script });
  return server;
}

function post(running: AnthropicMessagesServer, body: unknown): Promise<Response> {
  return fetch(`${running.baseURL}/v1/messages`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k" }, body: JSON.stringify(body) });
}

/** Each SSE event as [event name, parsed data]. */
function events(text: string): [string, Record<string, unknown>][] {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const [eventLine, dataLine] = block.split("\n");
      expect(eventLine?.startsWith("event: ")).toBe(true);
      expect(dataLine?.startsWith("data: ")).toBe(true);
      return [eventLine!.slice("event: ".length), JSON.parse(dataLine!.slice("data: ".length)) as Record<string, unknown>];
    });
}

describe("startAnthropicMessagesServer", () => {
  it("answers a JSON message with text and tool_use blocks and records the request", async () => {
    const running = await start([{ type: "message", text: "Sure.", toolUses: [{ id: "toolu_1", name: "f", input: { a: 1 } }], usage: { input_tokens: 9, output_tokens: 4 } }]);
    const response = await post(running, { model: "claude-t", max_tokens: 10, messages: [{ role: "user", content: "x" }] });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: "msg_scripted_1",
      type: "message",
      role: "assistant",
      model: "claude-t",
      content: [
        { type: "text", text: "Sure.", citations: null },
        { type: "tool_use", id: "toolu_1", name: "f", input: { a: 1 } },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 9, output_tokens: 4, cache_creation_input_tokens: null, cache_read_input_tokens: null },
    });
    expect(running.messageRequests()[0]).toMatchObject({ path: "/v1/messages", headers: { "x-api-key": "k" }, body: { model: "claude-t" } });
  });

  it("streams the Messages event sequence", async () => {
    const running = await start([{ type: "message", text: "hello", chunkSize: 3, toolUses: [{ id: "t1", name: "g", input: { q: "z" } }], usage: { input_tokens: 5, output_tokens: 6 } }]);
    const response = await post(running, { model: "c", max_tokens: 10, stream: true, messages: [] });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const sequence = events(await response.text());
    expect(sequence.map(([name]) => name)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(sequence[3]?.[1]).toEqual({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hel" } });
    expect(sequence[6]?.[1]).toEqual({ type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "t1", name: "g", input: {} } });
    const json = sequence.slice(7, 10).map(([, data]) => (data.delta as { partial_json: string }).partial_json).join("");
    expect(JSON.parse(json)).toEqual({ q: "z" });
    expect(sequence[11]?.[1]).toEqual({ type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 6 } });
  });

  it("answers scripted errors with an Anthropic error body", async () => {
    const running = await start([{ type: "error", status: 529, errorType: "overloaded_error", message: "Overloaded", headers: { "retry-after": "1" } }]);
    const response = await post(running, { model: "c", messages: [] });
    expect(response.status).toBe(529);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toEqual({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
  });

  it("says when the script has run out and lists models", async () => {
    const running = await start([]);
    const exhausted = await post(running, { model: "c", messages: [] });
    expect(exhausted.status).toBe(500);
    expect(((await exhausted.json()) as { error: { message: string } }).error.message).toContain("test script exhausted: request #1");
    const models = (await (await fetch(`${running.baseURL}/v1/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((model) => model.id)).toEqual(["scripted-claude"]);
  });
});
