import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isRathError, RathError } from "../errors";
import { loadSessionFile, parseSessionText } from "./session-loader";

const fixture = (name: string): string => join(import.meta.dirname, "fixtures", name);

async function loadError(name: string): Promise<RathError> {
  try {
    await loadSessionFile(fixture(name));
  } catch (error) {
    if (error instanceof RathError) return error;
    throw error;
  }
  throw new Error(`expected ${name} to fail to load`);
}

describe("loadSessionFile on reference fixtures", () => {
  it("reads a closed dialect-1 session, filling meta.at from the header", async () => {
    const { session, facts } = await loadSessionFile(fixture("reference-closed.jsonl"));
    expect(session.id).toBe("0b8f3c1e-5d2a-4e7b-9c41-2f6a8d9e1b30");
    expect(session.chunks.toArray().map((chunk) => chunk.kind)).toEqual([
      "system",
      "user",
      "assistant",
      "tool_result",
      "tool_result",
      "assistant",
    ]);
    expect(session.chunks.at(0)?.meta).toEqual({ at: "2026-03-01T10:00:00+00:00" });
    expect(session.lineage).toEqual({
      parent_session_ids: ["7d1e2a44-9b3c-4f58-8a6d-0c2e4b6f8a10"],
      lineage_operator: "run_session_loop",
      lineage_kind: "op_session_loop",
      lineage_extras: [
        ["agent", "coder"],
        ["loop.rounds", 2],
      ],
    });
    expect(session.placement).toEqual({
      backend: "local",
      spec: { image: null, entrypoint: null, env: {}, timeout_seconds: 30, working_dir: "/tmp/workspace" },
    });
    expect(session.usage).toEqual({ prompt_tokens: 412, completion_tokens: 58, total_tokens: 470 });
    expect(facts).toEqual({
      file: fixture("reference-closed.jsonl"),
      closed: true,
      schema_version: 1,
      created_at: "2026-03-01T10:00:00+00:00",
      closed_at: "2026-03-01T10:00:07+00:00",
      final_chunk_count: 6,
      cumulative_usage: { prompt_tokens: 412, completion_tokens: 58, total_tokens: 470 },
      dropped_last_line: false,
      sandbox_handle_id: "5e0c9a7b-1f2d-4c3e-8b4a-6d7e8f9a0b1c",
    });
  });

  it("reads a dialect-2 session with memory and route chunks, meta and evidence", async () => {
    const { session, facts } = await loadSessionFile(fixture("rath-memory-route.jsonl"));
    const chunks = session.chunks.toArray();
    expect(chunks.map((chunk) => chunk.kind)).toEqual(["user", "memory", "route", "assistant", "tool_result", "assistant"]);
    const memory = chunks[1];
    expect(memory?.kind === "memory" && memory.payload.hits?.map((hit) => hit.uri)).toEqual([
      "memory://agent/decisions/retries",
      "memory://agent/decisions/limits",
    ]);
    expect(chunks[2]?.kind === "route" && chunks[2].payload.chosen).toBe(1);
    expect(chunks[4]?.meta.evidence).toMatchObject({ ok: false, error_kind: "timeout", duration_ms: 60000, resource_key: "shell" });
    expect(chunks[3]?.meta.usage).toEqual({ prompt_tokens: 120, completion_tokens: 14, total_tokens: 134 });
    expect(session.pending).toEqual(["review"]);
    expect(session.provider).toBe("scripted");
    expect(session.placement.backend).toBe("bwrap");
    expect(facts.schema_version).toBe(2);
    expect(facts.closed).toBe(true);
    expect(session.usage).toEqual({ prompt_tokens: 320, completion_tokens: 31, total_tokens: 351 });
  });

  it("loads a crashed __partial__ file as not closed, with usage summed from its chunks", async () => {
    const { session, facts } = await loadSessionFile(fixture("crashed.jsonl.__partial__"));
    expect(facts.closed).toBe(false);
    expect(facts.closed_at).toBeNull();
    expect(facts.final_chunk_count).toBeNull();
    expect(session.chunks.length).toBe(2);
    expect(session.usage).toEqual({ prompt_tokens: 50, completion_tokens: 9, total_tokens: 59 });
  });

  it("drops an unterminated last line", async () => {
    const { session, facts } = await loadSessionFile(fixture("truncated-last-line.jsonl.__partial__"));
    expect(session.chunks.length).toBe(1);
    expect(facts.dropped_last_line).toBe(true);
    expect(facts.closed).toBe(false);
  });
});

describe("loader error rules name the line", () => {
  const cases: Array<[string, number, RegExp]> = [
    ["bad-json-line.jsonl", 3, /invalid JSON/],
    ["second-header.jsonl", 3, /found a second header/],
    ["chunk-before-header.jsonl", 1, /chunk before the header/],
    ["unknown-record-type.jsonl", 2, /unknown record_type "checkpoint"/],
    ["no-header.jsonl", 1, /no header/],
  ];
  for (const [name, line, message] of cases) {
    it(`${name} fails at line ${line}`, async () => {
      const error = await loadError(name);
      expect(error.code).toBe("invalid_file");
      expect(error.details).toMatchObject({ file: fixture(name), line });
      expect(error.message).toMatch(message);
      expect(error.message.startsWith(`${fixture(name)}:${line}: `)).toBe(true);
    });
  }

  it("refuses a newer schema version", async () => {
    const error = await loadError("schema-version-3.jsonl");
    expect(error.code).toBe("unsupported_schema_version");
    expect(error.details).toMatchObject({ line: 1, found: 3, supported: 2 });
  });

  const header = JSON.stringify({
    record_type: "header",
    schema_version: 2,
    id: "s1",
    created_at: "2026-01-01T00:00:00.000Z",
    parent_session_ids: [],
    lineage_operator: "Session.create",
    lineage_kind: "leaf_user",
    lineage_extras: [],
    sandbox_backend: "local",
    sandbox_spec: null,
    sandbox_handle_id: null,
  });
  const chunk = (index: number, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ record_type: "chunk", index, kind: "user", payload: { content: "x" }, ...extra });

  function errorOf(text: string): RathError {
    try {
      parseSessionText(text, "mem.jsonl");
    } catch (error) {
      if (isRathError(error)) return error;
      throw error;
    }
    throw new Error("expected an error");
  }

  it("refuses a gap in chunk indices", () => {
    const error = errorOf(`${header}\n${chunk(0)}\n${chunk(2)}\n`);
    expect(error.details).toMatchObject({ line: 3 });
    expect(error.message).toMatch(/expected chunk index 1, found 2/);
  });

  it("refuses a chunk whose payload does not match its kind, naming the field", () => {
    const error = errorOf(`${header}\n${JSON.stringify({ record_type: "chunk", index: 0, kind: "user", payload: { text: "x" } })}\n`);
    expect(error.details).toMatchObject({ line: 2 });
    expect(error.message).toMatch(/user payload at content/);
  });

  it("refuses memory chunks in a dialect-1 file and unknown chunk kinds", () => {
    const v1 = header.replace('"schema_version":2', '"schema_version":1');
    const memory = JSON.stringify({ record_type: "chunk", index: 0, kind: "memory", payload: { op: "commit", store: "s" } });
    expect(errorOf(`${v1}\n${memory}\n`).message).toMatch(/needs schema_version 2/);
    const odd = JSON.stringify({ record_type: "chunk", index: 0, kind: "thought", payload: {} });
    expect(errorOf(`${header}\n${odd}\n`).message).toMatch(/unknown chunk kind 'thought'/);
  });

  it("refuses a trailer whose count disagrees, and records after the trailer", () => {
    const trailer = (count: number) => JSON.stringify({ record_type: "trailer", closed_at: "t", final_chunk_count: count, cumulative_usage: null });
    expect(errorOf(`${header}\n${chunk(0)}\n${trailer(2)}\n`).details).toMatchObject({ line: 3 });
    const after = errorOf(`${header}\n${chunk(0)}\n${trailer(1)}\n${chunk(1)}\n`);
    expect(after.details).toMatchObject({ line: 4 });
    expect(after.message).toMatch(/nothing after the trailer on line 3/);
  });

  it("refuses a line that is JSON but not an object, and skips blank lines while counting them", () => {
    const error = errorOf(`${header}\n\n[1,2]\n`);
    expect(error.details).toMatchObject({ line: 3 });
    expect(error.message).toMatch(/found an array/);
  });

  it("reads a header with an unknown lineage kind as unknown (as the reference does)", () => {
    const loaded = parseSessionText(`${header.replace("leaf_user", "op_future")}\n`, "mem.jsonl");
    expect(loaded.session.lineage.lineage_kind).toBe("unknown");
  });
});
