import { describe, expect, it } from "vitest";
import { isRathError } from "../errors";
import type { ChatMessage } from "../providers/types";
import { createScriptedProvider, splitIntoDeltas, makeUsage } from "./scripted-provider";

const request = { model: "m", messages: [{ role: "user" as const, content: "hi" }] };

describe("createScriptedProvider", () => {
  it("answers steps in order, streams deltas and records requests", async () => {
    const provider = createScriptedProvider({
      steps: [{ toolCalls: [{ name: "echo", arguments: { text: "a" } }, { id: "mine", name: "raw", arguments: "{bad" }] }, { content: "done!", usage: makeUsage(3, 2) }],
    });
    const first = await provider.complete(request);
    expect(first.finishReason).toBe("tool_calls");
    expect(first.toolCalls).toEqual([
      { id: "call_0_0", type: "function", function: { name: "echo", arguments: "{\"text\":\"a\"}" } },
      { id: "mine", type: "function", function: { name: "raw", arguments: "{bad" } },
    ]);
    const deltas: string[] = [];
    const second = await provider.complete({ ...request, messages: [] }, { onDelta: (text) => deltas.push(text) });
    expect(deltas.join("")).toBe("done!");
    expect(deltas.length).toBeGreaterThan(1);
    expect(second).toMatchObject({ content: "done!", finishReason: "stop", usage: { total_tokens: 5 }, model: "m" });
    expect(provider.requests.map((r) => r.messages.length)).toEqual([1, 0]);
    expect(provider.remaining).toBe(0);
    expect(provider.kind).toBe("scripted");
  });

  it("records each request as it was at its call without copying it then, when the caller only appends", async () => {
    const provider = createScriptedProvider({ steps: (_request, index) => ({ content: String(index) }) });
    const messages: ChatMessage[] = [{ role: "user", content: "one" }];
    await provider.complete({ model: "m", messages });
    messages.push({ role: "assistant", content: "0" }, { role: "user", content: "two" });
    await provider.complete({ model: "m", messages });
    messages.push({ role: "assistant", content: "1" });
    expect(provider.requests.map((recorded) => recorded.messages.map((message) => message.content))).toEqual([["one"], ["one", "0", "two"]]);
    expect(provider.requests[1]?.messages[0]).toBe(messages[0]);
    expect(provider.requests[0]).toEqual({ model: "m", messages: [{ role: "user", content: "one" }] });
  });

  it("refuses to show a recorded request whose messages array was shrunk or rewritten after the call", async () => {
    const provider = createScriptedProvider({ steps: (_request, index) => ({ content: String(index) }) });
    const messages: ChatMessage[] = [{ role: "user", content: "one" }, { role: "user", content: "two" }];
    await provider.complete({ model: "m", messages });
    messages.length = 0;
    messages.push({ role: "user", content: "other" }, { role: "user", content: "again" });
    expect(() => provider.requests[0]?.messages).toThrow(/request 1's messages array was changed after the call/);
  });

  it("throws a clear provider_error when the script runs out", async () => {
    const provider = createScriptedProvider({ name: "tiny", steps: [{ content: "x" }] });
    await provider.complete(request);
    await expect(provider.complete(request)).rejects.toSatisfy(
      (error) => isRathError(error, "provider_error") && /tiny.*request 2.*1 step/.test(error.message),
    );
  });

  it("supports step functions, errors and a function script", async () => {
    const provider = createScriptedProvider({
      steps: [(r, index) => ({ content: `${index}:${r.messages.length}` }), { error: "rate limited" }],
    });
    expect((await provider.complete(request)).content).toBe("0:1");
    await expect(provider.complete(request)).rejects.toThrow("rate limited");
    const endless = createScriptedProvider({ steps: (_r, index) => ({ content: String(index) }) });
    await endless.complete(request);
    expect((await endless.complete(request)).content).toBe("1");
    expect(endless.remaining).toBe(Number.POSITIVE_INFINITY);
  });

  it("honours abort during a delay", async () => {
    const provider = createScriptedProvider({ steps: [{ content: "late", delayMs: 5_000 }] });
    const controller = new AbortController();
    const pending = provider.complete(request, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toSatisfy((error) => isRathError(error, "aborted"));
  });

  it("splits deltas deterministically", () => {
    expect(splitIntoDeltas("abcdefg")).toEqual(["abc", "def", "g"]);
    expect(splitIntoDeltas("")).toEqual([]);
  });
});
