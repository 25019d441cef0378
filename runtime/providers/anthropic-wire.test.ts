import { describe, expect, it } from "vitest";
import { AnthropicStreamAccumulator, mapAnthropicStopReason, parseToolInput, toAnthropicConversation } from "./anthropic-wire";

describe("toAnthropicConversation", () => {
  it("puts tool results first in the user turn and merges the next user text after them", () => {
    const conversation = toAnthropicConversation([
      { role: "user", content: "start" },
      { role: "assistant", content: "Calling.", tool_calls: [{ id: "t1", type: "function", function: { name: "f", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "t1", content: "result" },
      { role: "user", content: "and now?" },
    ]);
    expect(conversation.system).toBeUndefined();
    expect(conversation.messages).toEqual([
      { role: "user", content: "start" },
      { role: "assistant", content: [{ type: "text", text: "Calling." }, { type: "tool_use", id: "t1", name: "f", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "result" }, { type: "text", text: "and now?" }] },
    ]);
  });

  it("drops empty turns so that the remaining roles still alternate", () => {
    const conversation = toAnthropicConversation([
      { role: "user", content: "one" },
      { role: "assistant", content: "" },
      { role: "user", content: "two" },
      { role: "user", content: "" },
    ]);
    expect(conversation.messages).toEqual([{ role: "user", content: [{ type: "text", text: "one" }, { type: "text", text: "two" }] }]);
  });
});

describe("parseToolInput", () => {
  it("parses JSON objects and keeps anything else under `arguments`", () => {
    expect(parseToolInput('{"a":1}')).toEqual({ a: 1 });
    expect(parseToolInput("  ")).toEqual({});
    expect(parseToolInput("[1,2]")).toEqual({ arguments: "[1,2]" });
    expect(parseToolInput("{broken")).toEqual({ arguments: "{broken" });
  });
});

describe("mapAnthropicStopReason", () => {
  it("maps every stop reason", () => {
    const reasons = ["end_turn", "stop_sequence", "pause_turn", "max_tokens", "model_context_window_exceeded", "tool_use", "refusal"];
    expect(reasons.map((reason) => mapAnthropicStopReason(reason, false))).toEqual(["stop", "stop", "stop", "length", "length", "tool_calls", "content_filter"]);
    expect(mapAnthropicStopReason(null, true)).toBe("tool_calls");
    expect(mapAnthropicStopReason(null, false)).toBe("stop");
  });
});

describe("AnthropicStreamAccumulator", () => {
  it("counts cache tokens as prompt tokens and takes the last output count", () => {
    const accumulator = new AnthropicStreamAccumulator();
    accumulator.add({
      type: "message_start",
      message: { model: "c", usage: { input_tokens: 10, cache_creation_input_tokens: 5, cache_read_input_tokens: 100, output_tokens: 1 } },
    } as never);
    accumulator.add({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 42, input_tokens: null } } as never);
    expect(accumulator.result("c")).toEqual({
      content: null,
      toolCalls: [],
      finishReason: "stop",
      usage: { prompt_tokens: 115, completion_tokens: 42, total_tokens: 157 },
      model: "c",
    });
  });
});
