import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isRathError, type RathError } from "../errors";
import { makeChunk } from "../session/chunk";
import { Session } from "../session/session";
import { parseBundle, readBundle } from "./bundle-reader";
import { buildBundle, writeBundle } from "./bundle-writer";

function runSessions() {
  const root = Session.create("user", "plan a trip")
    .to("local", { workingDir: "/tmp/run", env: { LANG: "C", ANTHROPIC_API_KEY: "sk-ant-secret" } })
    .withExtras([["authorization", "Bearer abc"], ["node", "input"]]);
  const left = root.fork().append(makeChunk("assistant", { content: "Go to Lisbon", tool_calls: null }, { at: "2026-01-01T00:00:01.000Z", usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 } }));
  const right = root.fork().append(makeChunk("assistant", { content: "Go to Oslo", tool_calls: null }, { at: "2026-01-01T00:00:02.000Z" }));
  const merged = left.merge(right);
  return { root, left, right, merged };
}

function errorOf(text: string): RathError {
  try {
    parseBundle(text, "run.jsonl");
  } catch (error) {
    if (isRathError(error)) return error;
    throw error;
  }
  throw new Error("expected an error");
}

describe("bundles", () => {
  it("round-trips sessions, lineage, chunks, run metadata and events, writing shared prefixes once", () => {
    const { root, left, right, merged } = runSessions();
    const text = buildBundle({
      sessions: [merged, { session: left, annotations: { node_id: "agent_a", api_token: "x" } }, right.toSnapshot(), root],
      run: { run_id: "run_1", workflow: "trip", revision: "r1", status: "succeeded", events: [{ type: "run.created", headers: { Authorization: "Bearer zzz" } }] },
      createdAt: "2026-01-01T00:00:00.000Z",
    });
    const lines = text.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.record_type)).toEqual(["bundle", "session", "chunk", "session", "chunk", "session", "chunk", "session", "chunk", "chunk", "event"]);
    expect(lines[0]).toEqual({
      record_type: "bundle",
      schema_version: 1,
      created_at: "2026-01-01T00:00:00.000Z",
      run: { run_id: "run_1", workflow: "trip", revision: "r1", status: "succeeded" },
      session_count: 4,
      event_count: 1,
    });
    // Parents first: root, then left and right (each writes only its own chunk), then merged (left ++ right: base = left, then right's two chunks).
    expect(lines.filter((line) => line.record_type === "session").map((line) => [line.id, line.base])).toEqual([
      [root.id, null],
      [left.id, { session_id: root.id, chunk_count: 1 }],
      [right.id, { session_id: root.id, chunk_count: 1 }],
      [merged.id, { session_id: left.id, chunk_count: 2 }],
    ]);
    expect(text).not.toMatch(/sk-ant-secret|Bearer|api_token/);

    const read = parseBundle(text, "run.jsonl");
    expect(read.bundle.run?.run_id).toBe("run_1");
    expect(read.events).toEqual([{ type: "run.created", headers: {} }]);
    const byId = new Map(read.sessions.map((entry) => [entry.session.id, entry]));
    for (const original of [root, left, right, merged]) {
      const loaded = byId.get(original.id)?.session;
      expect(loaded?.chunks.toArray()).toEqual(original.chunks.toArray());
      expect(loaded?.lineage.parent_session_ids).toEqual(original.lineage.parent_session_ids);
      expect(loaded?.usage).toEqual(original.usage);
    }
    expect(byId.get(root.id)?.session.placement.spec?.env).toEqual({ LANG: "C" });
    expect(byId.get(root.id)?.session.lineage.lineage_extras).toEqual([["source", "Session.create"], ["node", "input"]]);
    expect(byId.get(left.id)?.annotations).toEqual({ node_id: "agent_a" });
  });

  it("writes the file with mode 0600 and reads it back", async () => {
    const directory = await mkdtemp(join(tmpdir(), "rath-bundle-"));
    try {
      const { root, left } = runSessions();
      const file = join(directory, "run.jsonl");
      await writeBundle(file, { sessions: [root, left] });
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await readBundle(file)).sessions.map((entry) => entry.session.id)).toEqual([root.id, left.id]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("reads the hand-written fixture", async () => {
    const read = await readBundle(join(import.meta.dirname, "fixtures", "run-bundle.jsonl"));
    expect(read.sessions.map((entry) => [entry.session.id.slice(0, 4), entry.session.chunks.length, entry.annotations.status ?? null])).toEqual([
      ["1111", 1, null],
      ["2222", 2, "succeeded"],
      ["3333", 3, "failed"],
    ]);
    expect(read.sessions[2]?.session.chunks.at(0)).toEqual(read.sessions[0]?.session.chunks.at(0));
    expect(read.events).toHaveLength(2);
  });

  it("refuses a missing parent or duplicate sessions when writing", () => {
    const { root, left } = runSessions();
    expect(() => buildBundle({ sessions: [left] })).toThrow(/not in the graph/);
    expect(() => buildBundle({ sessions: [root, root] })).toThrow(/twice/);
  });

  it("names the line of every malformed record and checks the lineage on import", () => {
    const { root, left } = runSessions();
    const good = buildBundle({ sessions: [root, left], createdAt: "t" });
    const lines = good.trimEnd().split("\n");
    const head = lines[0] as string;
    expect(errorOf("").details).toMatchObject({ line: 1 });
    expect(errorOf(`${lines.slice(1).join("\n")}\n`).message).toMatch(/first record to be record_type "bundle"/);
    expect(errorOf(`${lines[0]}\n{oops\n`).details).toMatchObject({ line: 2 });
    expect(errorOf(`${lines[0]}\n${lines[2]}\n`).message).toMatch(/session record before its chunks/);
    const truncated = errorOf(`${lines.slice(0, 3).join("\n")}\n`);
    expect(truncated.message).toMatch(/declares 2 sessions, found 1/);
    expect(truncated.details).toMatchObject({ line: 4 });
    const badIndex = lines.map((line, i) => (i === 4 ? line.replace('"index":1', '"index":7') : line)).join("\n");
    expect(errorOf(`${badIndex}\n`).details).toMatchObject({ line: 5 });
    expect(errorOf(`${head.replace('"schema_version":1', '"schema_version":9')}\n`).code).toBe("unsupported_schema_version");
    const orphan = `${head.replace('"session_count":2', '"session_count":1')}\n${lines[3]}\n${lines[4]}\n`;
    expect(errorOf(orphan.replace(/"base":\{[^}]*\}/, '"base":null').replace('"chunk_count":2', '"chunk_count":1').replace('"index":1', '"index":0')).code).toBe("not_found");
  });
});
