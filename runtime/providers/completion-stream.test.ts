import { describe, expect, it } from "vitest";
import { failureOf } from "../testing/failure-of";
import type { CompletionResult } from "./completion-result";
import { readCompletionStream, type StreamAccumulator } from "./completion-stream";

/** Accumulates plain strings: each event is its own delta. */
function textAccumulator(): StreamAccumulator<string> {
  let text = "";
  return {
    add: (event) => {
      text += event;
      return event;
    },
    result: (requestedModel): CompletionResult => ({ content: text, toolCalls: [], finishReason: "stop", usage: null, model: requestedModel }),
  };
}

async function* eventsOf(events: string[], afterEach?: () => void): AsyncGenerator<string> {
  for (const event of events) {
    yield event;
    afterEach?.();
  }
}

describe("readCompletionStream", () => {
  it("passes only non-empty deltas on and returns the accumulated result", async () => {
    const deltas: string[] = [];
    const result = await readCompletionStream(eventsOf(["He", "", "llo"]), textAccumulator(), "m1", (text) => deltas.push(text), undefined);
    expect(deltas).toEqual(["He", "llo"]);
    expect(result).toEqual({ content: "Hello", toolCalls: [], finishReason: "stop", usage: null, model: "m1" });
  });

  it("throws aborted when the signal fired, even though the stream ended quietly", async () => {
    const controller = new AbortController();
    const error = await failureOf(readCompletionStream(eventsOf(["a", "b"], () => controller.abort()), textAccumulator(), "m1", () => undefined, controller.signal));
    expect(error.code).toBe("aborted");
    expect(error.message).toBe("the model request was aborted by the caller");
  });
});
