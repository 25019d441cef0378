import { afterEach, describe, expect, it, vi } from "vitest";
import { Chunk, ChunkMeta, isoNow, makeChunk, REFERENCE_CHUNK_KINDS, TOOL_ERROR_KINDS } from "./chunk";
import { LINEAGE_KINDS } from "./lineage";

const call = { id: "c1", type: "function" as const, function: { name: "add", arguments: "{\"a\":1}" } };

describe("Chunk", () => {
  it("accepts the payload of every kind (SPEC §2) and refuses a payload of another kind", () => {
    const valid: unknown[] = [
      { kind: "system", payload: { content: "s" } },
      { kind: "user", payload: { content: "u" } },
      { kind: "assistant", payload: { content: null, tool_calls: [call] } },
      { kind: "assistant", payload: { content: "done", tool_calls: null } },
      { kind: "tool_result", payload: { tool_call_id: "c1", name: "add", content: "{\"sum\":1}" } },
      { kind: "memory", payload: { op: "recall", store: "local", query: "q", hits: [{ uri: "memory://user/a", score: 1.2, snippet: "x" }] } },
      { kind: "memory", payload: { op: "remember", store: "local", uri: "memory://user/a", count: 1 } },
      { kind: "memory", payload: { op: "commit", store: "local", count: 2 } },
      { kind: "route", payload: { selector: "s", candidates: [{ index: 0, name: "a", description: "A" }], chosen: -1, reply: "-1" } },
    ];
    for (const chunk of valid) expect(Chunk.safeParse({ ...(chunk as object), meta: { at: "2026-01-01T00:00:00.000Z" } }).success).toBe(true);
    const invalid: unknown[] = [
      { kind: "user", payload: { text: "u" } },
      { kind: "assistant", payload: { content: "x" } },
      { kind: "assistant", payload: { content: null, tool_calls: [{ ...call, type: 1 }] } },
      { kind: "tool_result", payload: { tool_call_id: "c1", content: "{}" } },
      { kind: "memory", payload: { op: "forget", store: "local" } },
      { kind: "route", payload: { selector: "s", candidates: [], chosen: "0", reply: "0" } },
      { kind: "developer", payload: { content: "x" } },
    ];
    for (const chunk of invalid) expect(Chunk.safeParse({ ...(chunk as object), meta: { at: "t" } }).success).toBe(false);
  });

  it("carries metadata: at (ISO time), producer, usage, model, latency and tool evidence", () => {
    const chunk = makeChunk("tool_result", { tool_call_id: "c1", name: "add", content: "{}" }, {
      producer: "add",
      evidence: {
        args: { a: 1 },
        ok: false,
        error_kind: "timeout",
        duration_ms: 3,
        sandbox: { backend: "local", working_dir: "/w", handle_id: "h" },
        resource_key: "math",
      },
    });
    expect(new Date(chunk.meta.at).toISOString()).toBe(chunk.meta.at);
    expect(ChunkMeta.parse(chunk.meta)).toEqual(chunk.meta);
    expect(makeChunk("user", { content: "x" }, { at: "2026-01-01T00:00:00.000Z" }).meta.at).toBe("2026-01-01T00:00:00.000Z");
    expect(ChunkMeta.safeParse({ at: "t", evidence: { args: {}, ok: false, error_kind: "oops", duration_ms: 1, sandbox: null, resource_key: null } }).success).toBe(false);
    expect(
      ChunkMeta.safeParse({ at: "t", usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 }, model: "m", latency_ms: 5 }).success,
    ).toBe(true);
  });

  it("names the spec's kinds, lineage kinds and tool error kinds exactly", () => {
    expect(REFERENCE_CHUNK_KINDS).toEqual(["system", "user", "assistant", "tool_result"]);
    expect(LINEAGE_KINDS).toEqual(["unknown", "leaf_user", "leaf_system", "op_create", "op_session_loop", "op_fork", "op_detach", "op_merge", "op_session_compress"]);
    expect(TOOL_ERROR_KINDS).toEqual([
      "invalid_tool_arguments",
      "unknown_tool",
      "tool_execution_exception",
      "tool_policy_denied",
      "timeout",
      "os_error",
      "file_not_found",
      "unsupported_tool",
      "sandbox_closed",
    ]);
  });
});

describe("isoNow", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is the current time to the millisecond, and moves when the clock does", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-03-04T05:06:07.008Z"));
    expect(isoNow()).toBe("2026-03-04T05:06:07.008Z");
    expect(makeChunk("user", { content: "x" }).meta.at).toBe("2026-03-04T05:06:07.008Z");
    vi.advanceTimersByTime(1);
    expect(isoNow()).toBe("2026-03-04T05:06:07.009Z");
    vi.setSystemTime(new Date("2025-01-01T00:00:00.000Z"));
    expect(makeChunk("user", { content: "x" }).meta.at).toBe("2025-01-01T00:00:00.000Z");
  });
});
