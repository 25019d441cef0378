import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isRathError } from "../errors";
import { makeChunk } from "../session/chunk";
import { IDS_PLAIN, isPlainId, lineFacts } from "../session/line-facts";
import { Session, type SessionSnapshot } from "../session/session";
import { exportLineage, parseLineageExport, readLineageExport, writeLineageExport, type LineageSource } from "./lineage-export";

class Node {
  self: Node = this;
  toString(): string {
    return "Node(cyclic)";
  }
}

describe("exportLineage", () => {
  it("writes one line per session with the reference fields, in order", () => {
    const root = Session.create("user", "hi");
    const fork = root.fork().append(makeChunk("assistant", { content: "yo", tool_calls: null }, { usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } }));
    const merged = root.merge(fork);
    const text = exportLineage([root, fork, merged.toSnapshot()]);
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.trimEnd().split("\n").map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual([
      { id: root.id, parent_session_ids: [], lineage_operator: "Session.create", lineage_kind: "leaf_user", lineage_extras: [["source", "Session.create"]], chunk_count: 1, cumulative_usage: null },
      { id: fork.id, parent_session_ids: [root.id], lineage_operator: "Session.fork", lineage_kind: "op_fork", lineage_extras: [], chunk_count: 2, cumulative_usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } },
      { id: merged.id, parent_session_ids: [root.id, fork.id], lineage_operator: "Session.merge", lineage_kind: "op_merge", lineage_extras: [], chunk_count: 3, cumulative_usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } },
    ]);
    expect(Object.keys(lines[0] as object)).toEqual(["id", "parent_session_ids", "lineage_operator", "lineage_kind", "lineage_extras", "chunk_count", "cumulative_usage"]);
    expect(exportLineage([])).toBe("");
  });

  it("writes extras as Python's json.dumps does (numbers of any size and NaN kept), other non-JSON values as strings, and leaves secret-named extras out", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const session = Session.create("empty").withExtras([
      ["fn", function onDone() {}],
      ["big", 12n],
      ["huge", 2n ** 64n + 1n],
      ["nothing", undefined],
      ["nan", Number.NaN],
      ["inf", [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]],
      ["when", new Date("2026-01-02T03:04:05.000Z")],
      ["instance", new Node()],
      ["cycle", cyclic],
      ["plain", { nested: [1, "two", null, { authorization: "Bearer x", keep: true }] }],
      ["quote\"d", "line\nbreak"],
      ["OPENAI_API_KEY", "sk-live"],
      ["budget.max_tokens", 100],
    ]);
    const [line] = parseLineageExport(exportLineage([session]), "mem");
    expect(line?.lineage_extras).toEqual([
      ["source", "Session.create"],
      ["fn", "[function onDone]"],
      ["big", 12],
      ["huge", 18446744073709551617n],
      ["nothing", "undefined"],
      ["nan", Number.NaN],
      ["inf", [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]],
      ["when", "2026-01-02T03:04:05.000Z"],
      ["instance", "Node(cyclic)"],
      ["cycle", "[object Object]"],
      ["plain", { nested: [1, "two", null, { keep: true }] }],
      ["quote\"d", "line\nbreak"],
      ["budget.max_tokens", 100],
    ]);
  });

  it("joins batches without losing or doubling lines at the batch boundary", () => {
    const sessions = Array.from({ length: 513 }, () => Session.create("empty"));
    for (const count of [255, 256, 257, 512, 513]) {
      const lines = exportLineage(sessions.slice(0, count)).split("\n");
      expect(lines.pop()).toBe("");
      expect(lines.map((line) => (JSON.parse(line) as { id: string }).id)).toEqual(sessions.slice(0, count).map((session) => session.id));
    }
  });

  it("exports 10k sessions, one line each in order (speed is measured by npm run bench:runtime, not here)", () => {
    let session = Session.create("user", "root");
    const sessions: Session[] = [session];
    for (let i = 1; i < 10_000; i++) {
      session = i % 3 === 0 ? session.fork().withExtras([["step", i]]) : session.fork();
      sessions.push(session);
    }
    const lines = exportLineage(sessions).split("\n");
    expect(lines.pop()).toBe("");
    expect(lines).toHaveLength(10_000);
    const last = JSON.parse(lines[9_999] ?? "null") as { id: string; parent_session_ids: string[] };
    expect(last.id).toBe(sessions[9_999]?.id);
    expect(last.parent_session_ids).toEqual([sessions[9_998]?.id]);
  });
});

describe("writeLineageExport", () => {
  it("writes the same text as exportLineage, mode 0600, and a failure leaves the old file and no temporary file", async () => {
    const directory = await mkdtemp(join(tmpdir(), "rath-lineage-"));
    try {
      const file = join(directory, "lineage.jsonl");
      let session = Session.create("user", "root");
      const sessions: Session[] = [session];
      for (let i = 1; i < 600; i++) sessions.push((session = session.fork()));
      await writeLineageExport(file, sessions);
      expect(await readFile(file, "utf8")).toBe(exportLineage(sessions));
      expect((await stat(file)).mode & 0o777).toBe(0o600);

      await writeFile(file, "previous\n");
      function* failing(): Generator<Session> {
        yield* sessions.slice(0, 300);
        throw new Error("source broke");
      }
      await expect(writeLineageExport(file, failing())).rejects.toThrow(/could not write lineage export .*source broke/);
      expect(await readFile(file, "utf8")).toBe("previous\n");
      expect(await readdir(directory)).toEqual(["lineage.jsonl"]);

      // The same after several 256 KB pieces have been handed to the thread pool (writes in flight when it fails).
      const many = Array.from({ length: 4_000 }, () => session.fork());
      function* failingLate(): Generator<Session> {
        yield* many;
        throw new Error("source broke late");
      }
      await expect(writeLineageExport(file, failingLate())).rejects.toThrow(/could not write lineage export .*source broke late/);
      expect(exportLineage(many).length).toBeGreaterThan(3 * 256 * 1024);
      expect(await readFile(file, "utf8")).toBe("previous\n");
      expect(await readdir(directory)).toEqual(["lineage.jsonl"]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe("writeLineageExport's byte writer", () => {
  /** A session-like source (snapshots from files may carry any id, names, extras and numbers). */
  function source(id: string, parents: string[], extras: [string, unknown][], chunks: number, usage: unknown, operator = "Session.fork", kind = "op_fork"): LineageSource {
    return { id, lineage: { parent_session_ids: parents, lineage_operator: operator, lineage_kind: kind, lineage_extras: extras }, chunks: { length: chunks }, usage } as never;
  }

  it("pins the bytes of plain, bare and awkward lines (unicode, quotes, newlines, secrets, no parents, no usage)", async () => {
    const uuid = "0b7bc07b-a88b-4e65-997d-9447983d5c26";
    const other = "7d1e2a44-9b3c-4f58-8a6d-0c2e4b6f8a10";
    const sources = [
      source(uuid, [other, uuid], [], 12, { prompt_tokens: 120, completion_tokens: 18, total_tokens: 138 }, "run_session_loop", "op_session_loop"),
      source(other, [], [], 0, null, "Session.detach", "op_detach"),
      source(
        'caf\u00e9 \u{1F600} "q"\nline\t\\',
        [uuid],
        [["note", 'two\nlines, "quoted", caf\u00e9 \u{1F600}'], ["api_key", "sk-x"], ["n", 1.5], ["neg", -3], ["big", 1e21], ["exact", 2 ** 53 + 2], ["nan", Number.NaN], ["obj", { a: [null, true], password: "p" }]],
        1,
        { prompt_tokens: 0, completion_tokens: 2 ** 31, total_tokens: 2 ** 31 },
        'op\u00e9"rator',
        "unknown",
      ),
    ];
    const expected =
      '{"id":"0b7bc07b-a88b-4e65-997d-9447983d5c26","parent_session_ids":["7d1e2a44-9b3c-4f58-8a6d-0c2e4b6f8a10","0b7bc07b-a88b-4e65-997d-9447983d5c26"],"lineage_operator":"run_session_loop","lineage_kind":"op_session_loop","lineage_extras":[],"chunk_count":12,"cumulative_usage":{"prompt_tokens":120,"completion_tokens":18,"total_tokens":138}}\n' +
      '{"id":"7d1e2a44-9b3c-4f58-8a6d-0c2e4b6f8a10","parent_session_ids":[],"lineage_operator":"Session.detach","lineage_kind":"op_detach","lineage_extras":[],"chunk_count":0,"cumulative_usage":null}\n' +
      '{"id":"caf\u00e9 \u{1F600} \\"q\\"\\nline\\t\\\\","parent_session_ids":["0b7bc07b-a88b-4e65-997d-9447983d5c26"],"lineage_operator":"op\u00e9\\"rator","lineage_kind":"unknown",' +
      '"lineage_extras":[["note","two\\nlines, \\"quoted\\", caf\u00e9 \u{1F600}"],["n",1.5],["neg",-3],["big",1e+21],["exact",9007199254740994],["nan",NaN],["obj",{"a":[null,true]}]],' +
      '"chunk_count":1,"cumulative_usage":{"prompt_tokens":0,"completion_tokens":2147483648,"total_tokens":2147483648}}\n';
    expect(exportLineage(sources)).toBe(expected);
    const directory = await mkdtemp(join(tmpdir(), "rath-lineage-"));
    try {
      const file = join(directory, "lineage.jsonl");
      await writeLineageExport(file, sources);
      expect((await readFile(file)).equals(Buffer.from(expected, "utf8"))).toBe(true);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("writes exactly the bytes of exportLineage for ids, names, extras and numbers that need care, across pieces", async () => {
    const uuid = "0b7bc07b-a88b-4e65-997d-9447983d5c26";
    // Ids of a UUID's length take the template path, others the general one: both must escape what needs it.
    const odd = ['q"uote', "back\\slash", "tab\tin", "caf\u00e9", "line\u2028break", "emoji-\u{1F600}", "lone-\ud800-surrogate", "del\u007f"].flatMap((text) => [
      text.padEnd(uuid.length, "x"),
      text,
    ]);
    odd.push("", "x".repeat(300));
    expect(odd.filter((id) => id.length === uuid.length)).toHaveLength(8);
    const numbers = [0, 7, 10, 99, 100, 999, 1000, 65_535, 2 ** 30 - 1, 2 ** 30, 2 ** 31 + 5, 2 ** 53 + 2, 1.5, -1, 1e21];
    const sources: LineageSource[] = [];
    for (let i = 0; i < 3_000; i++) {
      const id = i % 7 === 0 ? (odd[i % odd.length] as string) : uuid;
      const parents = [uuid, odd[(i * 3) % odd.length] as string, uuid].slice(0, i % 4);
      const extras: [string, unknown][] =
        i % 5 === 0
          ? [["step", i], ["api_key", "sk-secret"], ["nan", Number.NaN], ["big", 2n ** 64n], ["note", odd[i % odd.length]], [odd[(i + 1) % odd.length] as string, numbers[i % numbers.length]]]
          : i % 5 === 1
            ? [["flag", i % 2 === 0], ["none", null], ["object", { token: "x", nested: [1, "caf\u00e9", { password: "p" }] }], ["when", new Date(0)], ["fn", () => 1]]
            : [];
      const n = numbers[i % numbers.length] as number;
      const usage = i % 3 === 0 ? null : { prompt_tokens: n, completion_tokens: numbers[(i + 1) % numbers.length], total_tokens: numbers[(i + 2) % numbers.length] };
      const [operator, kind] = i % 11 === 0 ? ["op\u00e9\"rator", "unknown"] : i % 2 === 0 ? ["run_session_loop", "op_session_loop"] : ["Session.fork", "op_fork"];
      sources.push(source(id, parents, extras, numbers[(i + 3) % numbers.length] as number, usage, operator, kind));
    }
    // A line longer than a whole piece (256 KB), in the middle.
    sources.splice(1_500, 0, source(uuid, [uuid], [["long", "\u00e9".repeat(300_000)]], 1, null));
    const directory = await mkdtemp(join(tmpdir(), "rath-lineage-"));
    try {
      const file = join(directory, "lineage.jsonl");
      await writeLineageExport(file, sources);
      const written = await readFile(file);
      const expected = Buffer.from(exportLineage(sources), "utf8");
      expect(written.length).toBe(expected.length);
      expect(written.equals(expected)).toBe(true);
      expect(written.length).toBeGreaterThan(3 * 256 * 1024);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe("writeLineageExport of Sessions (ids and names known from their construction)", () => {
  /** Sessions made every way a Session is made, with plain ids and with ids and parents that need escaping or are not 36 characters. */
  function sessionsOfEveryKind(): Session[] {
    const uuid = "0b7bc07b-a88b-4e65-997d-9447983d5c26";
    const snapshotOf = (id: string, parents: string[], operator = "run_session_loop", kind: "op_session_loop" | "unknown" = "op_session_loop") => ({
      ...Session.create("user", "x").toSnapshot(),
      id,
      lineage: { parent_session_ids: parents, lineage_operator: operator, lineage_kind: kind, lineage_extras: [] as [string, unknown][] },
    });
    const root = Session.create("user", "root");
    const system = Session.create("system", "You help.");
    const fork = root.fork().append(makeChunk("assistant", { content: "a", tool_calls: null }, { usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } }));
    const loop = Session.derive({ chunks: fork.chunks, parents: [fork.id, system.id], kind: "op_session_loop", operator: "run_session_loop", extras: [["loop.truncated", true]] });
    const quoted = Session.fromSnapshot(snapshotOf('q"uote'.padEnd(36, "x"), [uuid]));
    const short = Session.fromSnapshot(snapshotOf("short", []));
    const escapedParent = Session.fromSnapshot(snapshotOf(uuid, ['back\\slash'.padEnd(36, "x")], 'op\u00e9"rator', "unknown"));
    const sessions = [
      root,
      system,
      fork,
      loop,
      Session.create("empty"),
      root.detach(),
      root.merge(fork),
      fork.merge(loop).withExtras([["note", "merged"]]),
      loop.forkAt(1),
      loop.to("docker").withPending(["next"]).withProvider("p"),
      quoted,
      short,
      escapedParent,
      quoted.fork(),
      short.fork().append(makeChunk("user", { content: "b" })),
      quoted.merge(root),
      root.merge(short),
      Session.derive({ chunks: [], parents: [root.id, 'q"'.padEnd(36, "x")], kind: "op_session_loop", operator: "run_session_loop" }),
      Session.derive({ chunks: [], parents: [root.id, fork.id, loop.id], kind: "op_merge", operator: "custom_merge" }),
      Session.derive({ chunks: [], parents: ["caf\u00e9".padEnd(36, "x")], kind: "op_session_compress", operator: "run_session_compress", extras: [["compressor.source_chunk_count", 3]] }),
      Session.fromSnapshot(snapshotOf(uuid, [uuid, uuid])),
      escapedParent.withExtras([["k", "v"]]),
    ];
    return [...sessions, ...sessions.map((session) => session.fork()), ...sessions.filter((session) => session.placement.backend !== "docker").flatMap((session) => [session.merge(root), root.merge(session)])];
  }

  it("writes the same bytes as for the sessions' snapshots (which take the checking path) and as exportLineage", async () => {
    const sessions = sessionsOfEveryKind();
    const snapshots = sessions.map((session) => session.toSnapshot());
    const expected = exportLineage(snapshots);
    expect(exportLineage(sessions)).toBe(expected);
    expect(expected).toContain('"id":"q\\"uote');
    expect(expected).toContain('"parent_session_ids":["back\\\\slash');
    const directory = await mkdtemp(join(tmpdir(), "rath-lineage-"));
    try {
      const file = join(directory, "lineage.jsonl");
      await writeLineageExport(file, sessions);
      expect((await readFile(file)).equals(Buffer.from(expected, "utf8"))).toBe(true);
      await writeLineageExport(file, snapshots);
      expect((await readFile(file)).equals(Buffer.from(expected, "utf8"))).toBe(true);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("every Session's line facts and chunk count are those its fields give", () => {
    const sessions = sessionsOfEveryKind();
    let plain = 0;
    for (const session of sessions) {
      const lineage = session.lineage;
      expect(Session.lineFacts(session)).toBe(lineFacts(isPlainId(session.id), lineage.parent_session_ids, lineage.lineage_operator, lineage.lineage_kind));
      expect(Session.chunkCount(session)).toBe(session.chunks.length);
      if ((Session.lineFacts(session) & IDS_PLAIN) === IDS_PLAIN) plain++;
    }
    // Both kinds are there: lines whose ids are copied unchecked and lines that take the checking path.
    expect(plain).toBeGreaterThan(10);
    expect(sessions.length - plain).toBeGreaterThan(10);
    const snapshot = sessions[0]?.toSnapshot() as SessionSnapshot;
    expect(Session.lineFacts(snapshot)).toBe(0);
    expect(Session.chunkCount(snapshot)).toBe(1);
  });
});

describe("parseLineageExport", () => {
  it("reads the fixture", async () => {
    const file = join(import.meta.dirname, "fixtures", "lineage-export.jsonl");
    const records = await readLineageExport(file);
    expect(records.map((record) => [record.id.slice(0, 8), record.lineage_kind, record.chunk_count])).toEqual([
      ["7d1e2a44", "leaf_user", 1],
      ["0b8f3c1e", "op_session_loop", 6],
      ["3c9d7e21", "op_fork", 6],
    ]);
    expect(exportLineage(records.map((record) => ({ id: record.id, lineage: record, chunks: { length: record.chunk_count }, usage: record.cumulative_usage }) as never))).toBe(
      await readFile(file, "utf8"),
    );
  });

  it("names the line of a bad record", () => {
    const good = '{"id":"a","parent_session_ids":[],"lineage_operator":"x","lineage_kind":"unknown","lineage_extras":[],"chunk_count":0,"cumulative_usage":null}';
    try {
      parseLineageExport(`${good}\n{"id":"b"}\n`, "lineage.jsonl");
      expect.unreachable();
    } catch (error) {
      expect(isRathError(error, "invalid_file")).toBe(true);
      expect((error as { details: unknown }).details).toMatchObject({ file: "lineage.jsonl", line: 2 });
    }
  });
});
