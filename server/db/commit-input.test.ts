import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseChunkInputs, parseSessionInputs } from "./commit-input";
import { ChunkInput, SessionInput } from "./session-record";

const at = "2026-12-04T03:00:00.000Z";
const usage = { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 };

const sessions: unknown[] = [
  {
    id: "s1",
    nodeId: "agent0",
    lineage: { parent_session_ids: ["s0"], lineage_operator: "Agent", lineage_kind: "op_session_loop", lineage_extras: [["round", 1], ["note", { a: 1 }]] },
    placement: { backend: "local", spec: null },
    usage,
    ownUsage: null,
    chunkCount: 3,
    inheritedChunkCount: 1,
    base: { sessionId: "s0", chunkCount: 1 },
  },
  // defaults left out, keys in another order
  { chunkCount: 0, placement: { spec: null, backend: null }, lineage: { lineage_extras: [], lineage_kind: "op_create", lineage_operator: "Input", parent_session_ids: [] }, id: "s2" },
  { id: "s3", nodeId: null, lineage: { parent_session_ids: [], lineage_operator: "x", lineage_kind: "unknown", lineage_extras: [] }, placement: { backend: "local", spec: null }, usage: { total_tokens: 2, prompt_tokens: 1, completion_tokens: 1 }, chunkCount: 1, status: "failed", error: "boom" },
];

const chunk = (value: unknown, index = 0): unknown => ({ sessionId: "s1", index, chunk: value });
const chunks: unknown[] = [
  chunk({ kind: "user", payload: { content: "hello" }, meta: { at } }),
  chunk({ kind: "system", payload: { content: "be brief" }, meta: { at, producer: "Input" } }),
  chunk({ kind: "assistant", payload: { content: "ok", tool_calls: null }, meta: { at, producer: "agent", usage, model: "m", latency_ms: 0.5 } }),
  chunk({ kind: "assistant", payload: { tool_calls: [{ id: "c1", type: "function", function: { arguments: "{}", name: "search" } }], content: null }, meta: { model: "m", at } }),
  chunk({ kind: "tool_result", payload: { tool_call_id: "c1", name: "search", content: "found" }, meta: { at, source_session_id: "s0" } }),
];

describe("commit inputs without a zod walk", () => {
  it("returns what the schemas return, with the same JSON text (key order and defaults)", () => {
    for (const session of sessions) {
      const quick = parseSessionInputs([session as SessionInput]);
      const parsed = z.array(SessionInput).parse([session]);
      expect(quick).toEqual(parsed);
      expect(JSON.stringify(quick)).toBe(JSON.stringify(parsed));
    }
    for (const input of chunks) {
      const quick = parseChunkInputs([input as ChunkInput]);
      const parsed = z.array(ChunkInput).parse([input]);
      expect(quick).toEqual(parsed);
      expect(JSON.stringify(quick)).toBe(JSON.stringify(parsed));
    }
  });

  it("leaves values outside the quick path to the schemas: extra keys are dropped, defaults of a sandbox spec filled", () => {
    const extra: unknown = { ...(sessions[0] as object), surprise: true, usage: { ...usage, cached_tokens: 2 } };
    expect(parseSessionInputs([extra as SessionInput])).toEqual(z.array(SessionInput).parse([extra]));
    expect((parseSessionInputs([extra as SessionInput])[0] as Record<string, unknown>).surprise).toBeUndefined();
    const spec: unknown = { ...(sessions[0] as object), placement: { backend: "bubblewrap", spec: { image: "debian" } } };
    expect(parseSessionInputs([spec as SessionInput])[0]?.placement.spec).toEqual(z.array(SessionInput).parse([spec])[0]?.placement.spec);
    const evidence = chunk({ kind: "tool_result", payload: { tool_call_id: "c1", name: "n", content: "" }, meta: { at, evidence: { args: {}, ok: true, duration_ms: 1, sandbox: null, resource_key: null } } });
    expect(parseChunkInputs([evidence as ChunkInput])).toEqual(z.array(ChunkInput).parse([evidence]));
    const memory = chunk({ kind: "memory", payload: { op: "recall", store: "notes", hits: [] }, meta: { at } });
    expect(parseChunkInputs([memory as ChunkInput])).toEqual(z.array(ChunkInput).parse([memory]));
  });

  it("refuses what the schemas refuse, with their errors", () => {
    const bad: unknown[] = [
      { ...(sessions[0] as object), chunkCount: -1 },
      { ...(sessions[0] as object), id: "" },
      { ...(sessions[0] as object), lineage: { ...(sessions[0] as { lineage: object }).lineage, lineage_kind: "op_teleport" } },
      { ...(sessions[0] as object), base: { sessionId: "s0", chunkCount: 0 } },
      { ...(sessions[0] as object), status: "maybe" },
      { ...(sessions[0] as object), usage: { prompt_tokens: 1.5, completion_tokens: 0, total_tokens: 1 } },
    ];
    for (const session of bad) {
      expect(() => parseSessionInputs([session as SessionInput])).toThrow(z.ZodError);
      expect(() => parseSessionInputs([session as SessionInput])).toThrow(z.array(SessionInput).safeParse([session]).error?.message);
    }
    const badChunks: unknown[] = [
      chunk({ kind: "user", payload: { content: 1 }, meta: { at } }),
      chunk({ kind: "assistant", payload: { content: "x" }, meta: { at } }),
      chunk({ kind: "user", payload: { content: "x" }, meta: { at, latency_ms: -1 } }),
      chunk({ kind: "user", payload: { content: "x" }, meta: {} }),
      chunk({ kind: "shout", payload: { content: "x" }, meta: { at } }),
      { sessionId: "s1", index: -1, chunk: { kind: "user", payload: { content: "x" }, meta: { at } } },
    ];
    for (const input of badChunks) expect(() => parseChunkInputs([input as ChunkInput])).toThrow(z.array(ChunkInput).safeParse([input]).error?.message);
  });
});
