import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import { mapOpenAIFinishReason, OpenAIStreamAccumulator, toUsage } from "./openai-wire";

function chunk(delta: ChatCompletionChunk.Choice.Delta, finishReason: ChatCompletionChunk.Choice["finish_reason"] = null): ChatCompletionChunk {
  return { id: "c", object: "chat.completion.chunk", created: 0, model: "m-stream", choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }] };
}

describe("OpenAIStreamAccumulator", () => {
  it("joins interleaved tool call pieces by index, including names sent in parts", () => {
    const accumulator = new OpenAIStreamAccumulator();
    accumulator.add(chunk({ tool_calls: [{ index: 1, id: "b", type: "function", function: { name: "se", arguments: "" } }] }));
    accumulator.add(chunk({ tool_calls: [{ index: 0, id: "a", type: "function", function: { name: "read", arguments: '{"p' } }] }));
    accumulator.add(chunk({ tool_calls: [{ index: 1, function: { name: "arch", arguments: '{"q":' } }] }));
    accumulator.add(chunk({ tool_calls: [{ index: 0, function: { arguments: '":1}' } }] }));
    accumulator.add(chunk({ tool_calls: [{ index: 1, function: { arguments: '"x"}' } }] }, "tool_calls"));
    const result = accumulator.result("m");
    expect(result.toolCalls).toEqual([
      { id: "a", type: "function", function: { name: "read", arguments: '{"p":1}' } },
      { id: "b", type: "function", function: { name: "search", arguments: '{"q":"x"}' } },
    ]);
    expect(result).toMatchObject({ content: null, finishReason: "tool_calls", usage: null, model: "m-stream" });
  });

  it("returns text deltas and concatenates them", () => {
    const accumulator = new OpenAIStreamAccumulator();
    expect([accumulator.add(chunk({ role: "assistant", content: "" })), accumulator.add(chunk({ content: "He" })), accumulator.add(chunk({ content: "y" }, "stop"))]).toEqual(["", "He", "y"]);
    expect(accumulator.result("m")).toMatchObject({ content: "Hey", finishReason: "stop" });
  });
});

describe("mapOpenAIFinishReason and toUsage", () => {
  it("maps legacy and missing reasons and fills a missing total", () => {
    expect(mapOpenAIFinishReason("function_call", false)).toBe("tool_calls");
    expect(mapOpenAIFinishReason(null, true)).toBe("tool_calls");
    expect(mapOpenAIFinishReason("weird", false)).toBe("stop");
    expect(toUsage({ prompt_tokens: 2, completion_tokens: 3 })).toEqual({ prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 });
    expect(toUsage(undefined)).toBeNull();
  });
});
