/**
 * `transfer.importFiles`: the files a person drops on the home page. Files the Python reference wrote (its own
 * fixtures: persisted sessions, a crashed partial file, a lineage export) become one read-only run whose graph has
 * their sessions, chunks and lineage; a bundle imports as a bundle; a malformed file is `invalid_file` naming the
 * file and line, and the database is unchanged.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { parseSessionText } from "../../runtime/files/session-loader";
import { runToCompletion } from "../engine/run-to-completion";
import { describeEachDatabase } from "../db/testing/test-databases";
import { callerFor, exampleSpec, expectApiError, rowCounts } from "./testing/api-harness";

const FIXTURES = path.join(process.cwd(), "runtime", "files", "fixtures", "reference");

function fixture(name: string): { name: string; content: string } {
  return { name, content: readFileSync(path.join(FIXTURES, name), "utf8") };
}

describeEachDatabase("transfer.importFiles", (open) => {
  it("reads reference session files and a lineage export into one run: their sessions, chunks and lineage", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const files = [fixture("unplaced.jsonl"), fixture("to-local-spec.jsonl"), fixture("tools-nan-bigint.jsonl"), fixture("lineage-nan-bigint.jsonl")];
    const imported = await api.transfer.importFiles({ files });
    expect(imported).toMatchObject({ source: "reference", status: "succeeded" });

    const graph = await api.sessions.graph({ runId: imported.runId });
    const byId = new Map(graph.sessions.map((session) => [session.id, session]));
    for (const file of files.slice(0, 3)) {
      const { session } = parseSessionText(file.content, file.name);
      const stored = byId.get(session.id);
      expect(stored?.chunkCount, file.name).toBe(session.chunks.length);
      expect(stored?.lineage.parent_session_ids, file.name).toEqual(session.lineage.parent_session_ids);
      expect(stored?.lineage.lineage_kind, file.name).toBe(session.lineage.lineage_kind);
    }
    // Sessions only the lineage export names are there with their lineage (no chunks: the export has none), and
    // parents no file holds are empty placeholders: the graph is every id and every parent named, once.
    const lineage = readFileSync(path.join(FIXTURES, "lineage-nan-bigint.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line.replace(/-?Infinity|NaN/g, "0")) as { id: string; parent_session_ids: string[] });
    const loaded = files.slice(0, 3).map((file) => parseSessionText(file.content, file.name).session);
    const named = new Set([...lineage.flatMap((record) => [record.id, ...record.parent_session_ids]), ...loaded.flatMap((session) => [session.id, ...session.lineage.parent_session_ids])]);
    expect(new Set(byId.keys())).toEqual(named);
    for (const record of lineage) {
      if (loaded.some((session) => session.id === record.id)) continue;
      expect(byId.get(record.id)?.lineage.parent_session_ids, record.id).toEqual(record.parent_session_ids);
      expect(byId.get(record.id)?.chunkCount, record.id).toBe(0);
    }

    // The chunks read back as the file had them (the first user message of the unplaced session).
    const unplaced = parseSessionText(files[0]?.content ?? "", "unplaced.jsonl").session.toSnapshot();
    const page = await api.sessions.chunks({ sessionId: unplaced.id, limit: 50 });
    expect(page.chunks.map((view) => view.chunk.kind)).toEqual(unplaced.chunks.map((chunk) => chunk.kind));
    expect(page.chunks[0]?.chunk.payload).toEqual(unplaced.chunks[0]?.payload);
    const run = await api.runs.get({ runId: imported.runId });
    expect(run.run.status).toBe("succeeded");
  });

  it("a crashed partial file becomes a failed session saying why; a parent in no file is an empty placeholder", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const partial = fixture("crashed-nan.jsonl.__partial__");
    const imported = await api.transfer.importFiles({ files: [partial] });
    expect(imported.status).toBe("failed");
    const graph = await api.sessions.graph({ runId: imported.runId });
    const crashed = graph.sessions.find((session) => session.id === parseSessionText(partial.content, partial.name).session.id);
    expect(crashed?.status).toBe("failed");
    expect(crashed?.error).toContain("no trailer");
    const placeholders = graph.sessions.filter((session) => session.id !== crashed?.id);
    expect(placeholders.map((session) => session.id).sort()).toEqual([...(crashed?.lineage.parent_session_ids ?? [])].sort());
    for (const session of placeholders) expect(session).toMatchObject({ chunkCount: 0, lineage: { lineage_operator: "(not in the imported files)" } });
  });

  it("a malformed file is an error naming the file and line, and nothing is stored", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const before = await rowCounts(database);
    const good = fixture("unplaced.jsonl");
    const lines = fixture("to-local-spec.jsonl").content.split("\n");
    lines[1] = '{"record_type": "chunk", "index": 0, "kind": "user", "payload": ';
    const broken = await expectApiError(api.transfer.importFiles({ files: [good, { name: "broken.jsonl", content: lines.join("\n") }] }), "BAD_REQUEST");
    expect(broken).toMatchObject({ code: "invalid_file" });
    expect(broken.message).toMatch(/^broken\.jsonl:2: /);

    const unknown = await expectApiError(api.transfer.importFiles({ files: [{ name: "notes.jsonl", content: '{"hello": "world"}\n' }] }), "BAD_REQUEST");
    expect(unknown.message).toMatch(/^notes\.jsonl:1: not a file Rath reads/);
    const empty = await expectApiError(api.transfer.importFiles({ files: [{ name: "empty.jsonl", content: "" }] }), "BAD_REQUEST");
    expect(empty.message).toBe("empty.jsonl:1: the file is empty");
    const twice = await expectApiError(api.transfer.importFiles({ files: [fixture("tools-nan-bigint.jsonl"), fixture("crashed-nan.jsonl.__partial__")] }), "BAD_REQUEST");
    expect(twice.message).toContain("crashed-nan.jsonl.__partial__:1: session 44444444-4444-4444-8444-444444444444 is also in tools-nan-bigint.jsonl");
    expect(await rowCounts(database)).toEqual(before);
  });

  it("a dropped bundle imports as a bundle, on its own only", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { run } = await api.runs.start({ spec: exampleSpec("hello-agent"), input: "bundle me" });
    await runToCompletion(database, run.id);
    const exported = await api.transfer.exportRun({ runId: run.id });
    if (exported.dialect !== "rath") throw new Error("expected a bundle");
    const imported = await api.transfer.importFiles({ files: [{ name: exported.bundle.name, content: exported.bundle.content }] });
    expect(imported).toMatchObject({ source: "bundle", status: "succeeded", renamedSessions: true });
    expect((await api.sessions.graph({ runId: imported.runId })).sessions).toHaveLength((await api.sessions.graph({ runId: run.id })).sessions.length);
    const mixed = await expectApiError(api.transfer.importFiles({ files: [{ name: "run.jsonl", content: exported.bundle.content }, fixture("unplaced.jsonl")] }), "BAD_REQUEST");
    expect(mixed.message).toContain("run.jsonl is a run bundle: import it on its own");
  });
});
