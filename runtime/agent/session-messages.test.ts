import { describe, expect, it } from "vitest";
import { makeChunk } from "../session/chunk";
import { Session } from "../session/session";
import { chunksToMessages, sessionToMessages } from "./session-messages";

describe("chunksToMessages", () => {
  it("maps the four reference kinds, turns recall hits into system messages and drops route and commit chunks", () => {
    const call = { id: "c1", type: "function" as const, function: { name: "echo", arguments: "{}" } };
    const session = Session.create("user", "hello").append(
      makeChunk("memory", { op: "recall", store: "local", query: "hello", hits: [{ uri: "memory://user/a", score: 1, snippet: "likes tea" }] }),
      makeChunk("assistant", { content: null, tool_calls: [call] }),
      makeChunk("tool_result", { tool_call_id: "c1", name: "echo", content: "{\"ok\":true}" }),
      makeChunk("route", { selector: "s", candidates: [], chosen: -1, reply: "-1" }),
      makeChunk("memory", { op: "commit", store: "local", count: 2 }),
      makeChunk("assistant", { content: "done", tool_calls: null }),
      makeChunk("system", { content: "note" }),
    );
    expect(chunksToMessages(session.chunks)).toEqual([
      { role: "user", content: "hello" },
      { role: "system", content: "[memory:memory://user/a] likes tea" },
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: "c1", name: "echo", content: "{\"ok\":true}" },
      { role: "assistant", content: "done" },
      { role: "system", content: "note" },
    ]);
  });

  it("puts the head (instructions) first", () => {
    const messages = sessionToMessages(Session.create("user", "q"), Session.create("system", "be brief"));
    expect(messages).toEqual([
      { role: "system", content: "be brief" },
      { role: "user", content: "q" },
    ]);
  });
});
