/**
 * Interop with the reference implementation (OpenRath 1.2.0): the files in fixtures/reference/ were written by
 * the reference's own writer code (see fixtures/reference/README.md). Every one must load, and loading then
 * writing schema 1 must give the same records back.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isRathError } from "../errors";
import { bindSandbox } from "../sandbox/bind";
import { makeChunk } from "../session/chunk";
import { Session } from "../session/session";
import { toolCounts } from "../cli/inspect-summary";
import { parseBundle } from "./bundle-reader";
import { buildBundle } from "./bundle-writer";
import { exportLineage, parseLineageExport } from "./lineage-export";
import { parsePythonJson } from "./python-json";
import { loadSessionFile } from "./session-loader";
import { sessionFileText } from "./session-records";
import { openSessionWriter } from "./session-writer";

const reference = (name: string): string => join(import.meta.dirname, "fixtures", "reference", name);
const SESSION_FIXTURES = ["to-local-spec.jsonl", "timeout-zero.jsonl", "unplaced.jsonl", "tools-nan-bigint.jsonl", "memory-injected.jsonl"];
/** `datetime.isoformat()` of an aware UTC time: what Python 3.10's `fromisoformat` reads (no `Z`). */
const PYTHON_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?\+00:00$/;

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "rath-interop-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** The records of a JSONL file as Python reads them (`json.loads` per line). */
async function records(file: string): Promise<unknown[]> {
  return (await readFile(file, "utf8"))
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => parsePythonJson(line));
}

describe("reading what the reference writes", () => {
  it("accepts sandbox_spec null fields (the README's .to('local', spec='./')) and keeps them null", async () => {
    const { session } = await loadSessionFile(reference("to-local-spec.jsonl"));
    expect(session.placement).toEqual({
      backend: "local",
      spec: { image: null, entrypoint: null, env: null, timeout_seconds: null, working_dir: "./" },
    });
  });

  it("accepts timeout_seconds 0.0 (a zero timedelta) with the other fields set", async () => {
    const { session } = await loadSessionFile(reference("timeout-zero.jsonl"));
    expect(session.placement.spec).toEqual({ image: "python:3.12", entrypoint: ["bash", "-lc"], env: { LANG: "C.UTF-8" }, timeout_seconds: 0, working_dir: null });
  });

  it("keeps sandbox_backend null unplaced (not 'local'): binding is refused until the session is placed", async () => {
    const { session } = await loadSessionFile(reference("unplaced.jsonl"));
    expect(session.placement).toEqual({ backend: null, spec: null });
    await expect(bindSandbox(session)).rejects.toSatisfy((error) => isRathError(error, "invalid_session_operation") && /never placed/.test(error.message));
    expect(session.to("local").placement.backend).toBe("local");
    // An unplaced session merges with a placed one (the reference keeps the first one's placement).
    expect(session.merge(Session.create("user", "x")).placement.backend).toBeNull();
  });

  it("keeps tool calls whose type is not 'function', and reads NaN/Infinity and integers past 2^53 as Python does", async () => {
    const { session, facts } = await loadSessionFile(reference("tools-nan-bigint.jsonl"));
    expect(facts.closed).toBe(true);
    const assistant = session.chunks.at(2);
    expect(assistant?.kind === "assistant" && assistant.payload.tool_calls?.map((call) => [call.type, call.function.name])).toEqual([
      ["custom", "grammar_tool"],
      ["function", "score"],
    ]);
    expect(session.lineage.lineage_extras).toEqual([
      ["nan", Number.NaN],
      ["inf", Number.POSITIVE_INFINITY],
      ["ninf", Number.NEGATIVE_INFINITY],
      ["big", 2n ** 64n + 1n],
      ["neg_big", -(2n ** 60n) - 7n],
      ["float", 0.1],
      ["nested", { seed: 12345678901234567891n, xs: [Number.NaN, 1.5] }],
    ]);
    // `{"ok": false, "score": NaN}` (the reference's own summary of a returned dict) is still a tool error.
    expect(toolCounts(session.chunks)).toEqual({ tool_calls: 2, tool_errors: 1 });
    // Text with U+2028/U+2029/U+0085 (written raw by the reference) reads back whole.
    const last = session.chunks.at(5);
    expect(last?.kind === "assistant" && last.payload.content).toBe("Line one\u2028line two\u2029para\u0085next.");
  });

  it("reads a crashed writer's partial file with NaN extras as not closed", async () => {
    const { session, facts } = await loadSessionFile(reference("crashed-nan.jsonl.__partial__"));
    expect(facts.closed).toBe(false);
    expect(session.chunks.length).toBe(6);
  });

  it("reads recalled memory where the reference puts it: system notes before the user message", async () => {
    const { session } = await loadSessionFile(reference("memory-injected.jsonl"));
    expect(session.chunks.toArray().map((chunk) => [chunk.kind, "content" in chunk.payload ? chunk.payload.content : null])).toEqual([
      ["system", "[memory:memory://user/memories/preferences/tea] likes green tea"],
      ["system", "[memory:memory://user/memories/preferences/empty]"],
      ["user", "What do I like to drink?"],
      ["assistant", "Green tea."],
    ]);
    expect(session.placement.backend).toBeNull();
  });

  it("reads a lineage export with NaN, Infinity and big integers in its extras", async () => {
    const lines = parseLineageExport(await readFile(reference("lineage-nan-bigint.jsonl"), "utf8"), "lineage-nan-bigint.jsonl");
    expect(lines.map((line) => line.id.slice(0, 8))).toEqual(["11111111", "22222222", "33333333", "44444444", "77777777"]);
    expect(lines[3]?.lineage_extras.slice(0, 4)).toEqual([
      ["nan", Number.NaN],
      ["inf", Number.POSITIVE_INFINITY],
      ["ninf", Number.NEGATIVE_INFINITY],
      ["big", 18446744073709551617n],
    ]);
  });
});

describe("round trips: the reference's file -> load -> write schema 1 -> the same records", () => {
  for (const name of SESSION_FIXTURES) {
    it(`${name} through the streaming writer and through the export`, async () => {
      const source = reference(name);
      const { session, facts } = await loadSessionFile(source);
      const expected = await records(source);

      const writer = await openSessionWriter(directory, session, {
        dialect: 1,
        createdAt: facts.created_at,
        sandboxHandleId: facts.sandbox_handle_id,
      });
      const written = await writer.close({ closedAt: facts.closed_at as string });
      expect(await records(written)).toEqual(expected);

      const exported = join(directory, "exported.jsonl");
      await import("node:fs/promises").then((fs) =>
        fs.writeFile(exported, sessionFileText(session, { dialect: 1, createdAt: facts.created_at, closedAt: facts.closed_at as string, sandboxHandleId: facts.sandbox_handle_id })),
      );
      expect(await records(exported)).toEqual(expected);
    });
  }

  it("a lineage export: reference file -> read -> export -> the same records", async () => {
    const sessions = await Promise.all(
      ["unplaced.jsonl", "to-local-spec.jsonl", "timeout-zero.jsonl", "tools-nan-bigint.jsonl", "memory-injected.jsonl"].map(async (name) => (await loadSessionFile(reference(name))).session),
    );
    const text = exportLineage(sessions);
    const expected = await records(reference("lineage-nan-bigint.jsonl"));
    expect(text.split("\n").filter(Boolean).map((line) => parsePythonJson(line))).toEqual(expected);
  });

  it("a bundle keeps an unplaced session unplaced and NaN/bigint extras exact", async () => {
    const tools = (await loadSessionFile(reference("tools-nan-bigint.jsonl"))).session.toSnapshot();
    const unplaced = (await loadSessionFile(reference("unplaced.jsonl"))).session;
    // Its second parent is not among the fixtures; a bundle needs a complete lineage.
    const session = Session.fromSnapshot({ ...tools, lineage: { ...tools.lineage, parent_session_ids: [unplaced.id] } });
    const read = parseBundle(buildBundle({ sessions: [unplaced, session] }), "bundle.jsonl");
    const byId = new Map(read.sessions.map((entry) => [entry.session.id, entry.session]));
    expect(byId.get(unplaced.id)?.placement.backend).toBeNull();
    expect(byId.get(session.id)?.lineage.lineage_extras).toEqual(session.lineage.lineage_extras);
  });
});

describe("writing schema 1 so the reference reads it", () => {
  it("writes times as the reference does (+00:00, microseconds), never Z", async () => {
    const session = Session.create("user", "hi");
    const times = [new Date(Date.UTC(2026, 10, 30, 12, 0, 0, 123)), new Date(Date.UTC(2026, 10, 30, 12, 0, 1, 0))];
    const writer = await openSessionWriter(directory, session, { dialect: 1, now: () => times.shift() as Date });
    const lines = (await records(await writer.close())) as Array<Record<string, unknown>>;
    expect(lines[0]?.created_at).toBe("2026-11-30T12:00:00.123000+00:00");
    expect(lines.at(-1)?.closed_at).toBe("2026-11-30T12:00:01+00:00");
    for (const time of [lines[0]?.created_at, lines.at(-1)?.closed_at]) expect(time).toMatch(PYTHON_TIME);
    // The export re-renders a toISOString() time (with Z) in the same form.
    const text = sessionFileText(session, { dialect: 1, createdAt: "2026-11-30T12:00:00.500Z", closedAt: new Date(Date.UTC(2026, 10, 30, 12, 0, 2)) });
    expect(text).toContain('"created_at":"2026-11-30T12:00:00.500000+00:00"');
    expect(text).toContain('"closed_at":"2026-11-30T12:00:02+00:00"');
  });

  it("escapes U+2028, U+2029 and U+0085, so str.splitlines sees one record per line", async () => {
    const session = Session.create("user", "a\u2028b\u2029c\u0085d").withExtras([["note", "x\u2028y"]]);
    const writer = await openSessionWriter(directory, session, { dialect: 1 });
    const text = await readFile(await writer.close(), "utf8");
    expect(text).not.toMatch(/[\u2028\u2029\u0085]/);
    expect(text).toContain("a\\u2028b\\u2029c\\u0085d");
    const lines = text.split("\n").filter(Boolean).map((line) => parsePythonJson(line) as Record<string, unknown>);
    expect(lines[1]).toEqual({ record_type: "chunk", index: 0, kind: "user", payload: { content: "a\u2028b\u2029c\u0085d" } });
  });

  it("writes a BigInt header extra as the lineage export writes it, instead of crashing and leaving an empty partial file", async () => {
    const session = Session.create("user", "hi").withExtras([["seed", 2n ** 64n + 1n], ["ratio", Number.NaN]]);
    const writer = await openSessionWriter(directory, session, { dialect: 1 });
    const file = await writer.close();
    const text = await readFile(file, "utf8");
    expect(text).toContain('["seed",18446744073709551617]');
    expect(text).toContain('["ratio",NaN]');
    expect(exportLineage([session])).toContain('["seed",18446744073709551617],["ratio",NaN]');
    expect((await loadSessionFile(file)).session.lineage.lineage_extras).toEqual([
      ["source", "Session.create"],
      ["seed", 18446744073709551617n],
      ["ratio", Number.NaN],
    ]);
  });

  it("a first write that fails leaves no partial file, so the retry is not a conflict", async () => {
    const cyclic: Record<string, unknown> = { content: "x" };
    cyclic.self = cyclic;
    const good = Session.create("user", "hi");
    const bad = good.append({ kind: "user", payload: cyclic, meta: { at: "2026-01-01T00:00:00.000Z" } } as never);
    await expect(openSessionWriter(directory, bad, { dialect: 1, name: "s" })).rejects.toSatisfy((error) => isRathError(error, "invalid_argument"));
    expect(await readdir(directory)).toEqual([]);
    const writer = await openSessionWriter(directory, good, { dialect: 1, name: "s" });
    expect((await stat(await writer.close())).size).toBeGreaterThan(0);
  });

  it("the memory recalled in a Rath session is written first, newest recall first, as the reference injects it", async () => {
    const at = { at: "2026-01-01T00:00:00.000Z" };
    const hit = (uri: string, snippet: string) => ({ uri, score: 1, snippet });
    const session = Session.create("user", "q1")
      .append(makeChunk("memory", { op: "recall", store: "m", query: "q1", hits: [hit("memory://a", " first ")] }, at))
      .append(makeChunk("assistant", { content: "a1", tool_calls: null }, at))
      .append(makeChunk("memory", { op: "commit", store: "m", count: 2 }, at))
      .append(makeChunk("user", { content: "q2" }, at))
      .append(makeChunk("memory", { op: "recall", store: "m", query: "q2", hits: [hit("memory://b", ""), hit("memory://c", "third")] }, at))
      .append(makeChunk("assistant", { content: "a2", tool_calls: null }, at));
    const text = sessionFileText(session, { dialect: 1, createdAt: new Date(0), closedAt: new Date(0) });
    const chunks = text
      .split("\n")
      .filter(Boolean)
      .map((line) => parsePythonJson(line) as { record_type: string; kind?: string; payload?: { content?: string } })
      .filter((record) => record.record_type === "chunk")
      .map((record) => `${record.kind}:${record.payload?.content}`);
    expect(chunks).toEqual(["system:[memory:memory://b]", "system:[memory:memory://c] third", "system:[memory:memory://a] first", "user:q1", "assistant:a1", "user:q2", "assistant:a2"]);
  });
});

/**
 * The reference's loader splits with `str.splitlines(keepends=True)`, reads each line with `json.loads` and its
 * times with `datetime.fromisoformat`. This runs those three calls (python3's standard library, not the
 * reference's code) over files we wrote.
 */
describe("python3 reads what we write", () => {
  const python = spawnSync("python3", ["--version"]).status === 0;
  it.skipIf(!python)("json.loads + str.splitlines + fromisoformat on a schema-1 file with NaN, bigints and line separators", async () => {
    const { session } = await loadSessionFile(reference("tools-nan-bigint.jsonl"));
    const writer = await openSessionWriter(directory, session, { dialect: 1 });
    const file = await writer.close();
    const script = [
      "import json, sys, datetime",
      "text = open(sys.argv[1], encoding='utf-8').read()",
      "records = [json.loads(line) for line in text.splitlines(keepends=True) if line.strip()]",
      "for r in records:",
      "    for key in ('created_at', 'closed_at'):",
      "        if key in r:",
      "            assert not r[key].endswith('Z'), r[key]",
      "            datetime.datetime.fromisoformat(r[key])",
      "extras = dict(records[0]['lineage_extras'])",
      "print(json.dumps({'records': len(records), 'big': str(extras['big']), 'nan': extras['nan'] != extras['nan'], 'last': records[-2]['payload']['content']}))",
    ].join("\n");
    const result = spawnSync("python3", ["-c", script, file], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({ records: 8, big: "18446744073709551617", nan: true, last: "Line one\u2028line two\u2029para\u0085next." });
  });
  if (!python) console.log("python3 not found: the python3 read-back check was skipped");
});
