import { describe, expect, it } from "vitest";
import { makeChunk } from "../session/chunk";
import { chunkBodies } from "./dialect";

describe("chunkBodies", () => {
  const at = { at: "2026-01-01T00:00:00.000Z" };
  it("writes chunks unchanged, with meta, in the Rath dialect", () => {
    const route = makeChunk("route", { selector: "s", candidates: [], chosen: -1, reply: "none" }, at);
    expect(chunkBodies(route, 2)).toEqual([{ kind: "route", payload: route.payload, meta: at }]);
  });
  it("writes memory hits as system chunks and drops hitless memory and route chunks in the reference dialect", () => {
    const recall = makeChunk("memory", { op: "recall", store: "m", hits: [{ uri: "memory://user/x", score: 1, snippet: "likes tea" }] }, at);
    const commit = makeChunk("memory", { op: "commit", store: "m", count: 3 }, at);
    const route = makeChunk("route", { selector: "s", candidates: [], chosen: -1, reply: "none" }, at);
    const tool = makeChunk("tool_result", { tool_call_id: "c", name: "t", content: "{}" }, at);
    expect(chunkBodies(recall, 1)).toEqual([{ kind: "system", payload: { content: "[memory:memory://user/x] likes tea" } }]);
    expect(chunkBodies(commit, 1)).toEqual([]);
    expect(chunkBodies(route, 1)).toEqual([]);
    expect(chunkBodies(tool, 1)).toEqual([{ kind: "tool_result", payload: tool.payload }]);
  });
});
