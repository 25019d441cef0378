import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isRathError } from "../errors";
import { makeChunk } from "../session/chunk";
import { Session } from "../session/session";
import { loadSessionFile } from "./session-loader";
import { openSessionWriter } from "./session-writer";

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "rath-writer-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const clock = () => {
  let tick = 0;
  return () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++));
};

const usage = (prompt: number, completion: number) => ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion });

function sampleSession(): Session {
  return Session.create("user", "find the bug", { producer: "user" })
    .to("local", { workingDir: "/tmp/ws", env: { LANG: "C", OPENAI_API_KEY: "sk-secret", GITHUB_TOKEN: "ghp_x" } })
    .withExtras([
      ["agent", "fixer"],
      ["api_key", "sk-should-not-be-written"],
    ])
    .withPending(["next"])
    .withProvider("scripted");
}

const laterChunks = () => [
  makeChunk("memory", { op: "recall", store: "notes", query: "bug", hits: [
    { uri: "memory://agent/a", score: 1.5, snippet: "first hit" },
    { uri: "memory://agent/b", score: 0.5, snippet: "second hit" },
  ] }, { at: "2026-01-01T00:00:01.000Z", producer: "memory" }),
  makeChunk("route", { selector: "s", candidates: [{ index: 0, name: "a", description: "A" }], chosen: 0, reply: "0" }, { at: "2026-01-01T00:00:02.000Z", usage: usage(5, 1) }),
  makeChunk("assistant", { content: "fixed", tool_calls: null }, { at: "2026-01-01T00:00:03.000Z", producer: "fixer", model: "m", usage: usage(10, 2), latency_ms: 7 }),
];

describe("openSessionWriter", () => {
  it("round-trips a session in the Rath dialect (kinds, meta, lineage, placement, usage, pending, provider)", async () => {
    const start = sampleSession();
    const writer = await openSessionWriter(directory, start, { now: clock() });
    const later = start.append(...laterChunks());
    await writer.update(later);
    const path = await writer.close();
    expect(path).toBe(join(directory, `${start.id}.jsonl`));
    const { session, facts } = await loadSessionFile(path);
    expect(session.chunks.toArray()).toEqual(later.chunks.toArray());
    expect(session.lineage.lineage_extras).toEqual([
      ["source", "Session.create"],
      ["agent", "fixer"],
    ]);
    expect(session.placement).toEqual({
      backend: "local",
      spec: { image: null, entrypoint: null, env: { LANG: "C" }, timeout_seconds: null, working_dir: "/tmp/ws" },
    });
    expect(session.usage).toEqual(usage(15, 3));
    expect(session.pending).toEqual(["next"]);
    expect(session.provider).toBe("scripted");
    expect(facts).toMatchObject({ closed: true, schema_version: 2, created_at: "2026-01-01T00:00:00.000Z", closed_at: "2026-01-01T00:00:01.000Z", final_chunk_count: 4 });
    const text = await readFile(path, "utf8");
    expect(text).not.toMatch(/sk-secret|ghp_x|sk-should-not-be-written/);
  });

  it("writes the strict reference dialect: four kinds, no meta, memory hits as system chunks first, route dropped, reference times", async () => {
    // Opened with the recall in the session (as the agent's output session is created): the hits go first, as
    // the reference's recall injection prepends them.
    const [recall, ...rest] = laterChunks();
    const start = sampleSession().append(recall!);
    const writer = await openSessionWriter(directory, start, { dialect: 1, now: clock() });
    await writer.append(...rest);
    const path = await writer.close();
    const lines = (await readFile(path, "utf8")).trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toEqual({
      record_type: "header",
      schema_version: 1,
      id: start.id,
      created_at: "2026-01-01T00:00:00+00:00",
      parent_session_ids: [],
      lineage_operator: "Session.create",
      lineage_kind: "leaf_user",
      lineage_extras: [
        ["source", "Session.create"],
        ["agent", "fixer"],
      ],
      sandbox_backend: "local",
      sandbox_spec: { image: null, entrypoint: null, env: { LANG: "C" }, timeout_seconds: null, working_dir: "/tmp/ws" },
      sandbox_handle_id: null,
    });
    expect(lines.slice(1, -1)).toEqual([
      { record_type: "chunk", index: 0, kind: "system", payload: { content: "[memory:memory://agent/a] first hit" } },
      { record_type: "chunk", index: 1, kind: "system", payload: { content: "[memory:memory://agent/b] second hit" } },
      { record_type: "chunk", index: 2, kind: "user", payload: { content: "find the bug" } },
      { record_type: "chunk", index: 3, kind: "assistant", payload: { content: "fixed", tool_calls: null } },
    ]);
    expect(lines.at(-1)).toEqual({ record_type: "trailer", closed_at: "2026-01-01T00:00:01+00:00", final_chunk_count: 4, cumulative_usage: usage(15, 3) });
    const { session } = await loadSessionFile(path);
    expect(session.chunks.toArray().map((chunk) => [chunk.kind, chunk.meta.at])).toEqual([
      ["system", "2026-01-01T00:00:00+00:00"],
      ["system", "2026-01-01T00:00:00+00:00"],
      ["user", "2026-01-01T00:00:00+00:00"],
      ["assistant", "2026-01-01T00:00:00+00:00"],
    ]);
  });

  it("writes mode 0600 to the partial file, appends as chunks arrive, and renames atomically on close", async () => {
    const start = sampleSession();
    const writer = await openSessionWriter(directory, start, { now: clock() });
    const partial = join(directory, `${start.id}.jsonl.__partial__`);
    expect(writer.partialPath).toBe(partial);
    expect((await stat(partial)).mode & 0o777).toBe(0o600);
    expect((await readFile(partial, "utf8")).split("\n").length - 1).toBe(2);
    await writer.append(laterChunks()[2] as never);
    const midway = await loadSessionFile(partial);
    expect(midway.facts.closed).toBe(false);
    expect(midway.session.chunks.length).toBe(2);
    expect(existsSync(writer.path)).toBe(false);
    await writer.close();
    expect(existsSync(partial)).toBe(false);
    expect((await stat(writer.path)).mode & 0o777).toBe(0o600);
    expect((await loadSessionFile(writer.path)).facts.closed).toBe(true);
  });

  it("abandon leaves the partial file, which loads as crashed", async () => {
    const start = sampleSession();
    const writer = await openSessionWriter(directory, start);
    await writer.abandon();
    const loaded = await loadSessionFile(writer.partialPath);
    expect(loaded.facts.closed).toBe(false);
    expect(existsSync(writer.path)).toBe(false);
  });

  it("refuses a second writer for the same session in this process, and allows one after close", async () => {
    const start = sampleSession();
    const first = await openSessionWriter(directory, start);
    const other = await mkdtemp(join(tmpdir(), "rath-writer-other-"));
    try {
      await expect(openSessionWriter(other, start)).rejects.toSatisfy((error) => isRathError(error, "conflict") && /already has an open writer/.test(error.message));
      await first.close();
      const again = await openSessionWriter(other, start);
      await again.close();
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it("refuses when the partial file exists (another process, or a crashed writer) via O_EXCL", async () => {
    const start = sampleSession();
    const partial = join(directory, `${start.id}.jsonl.__partial__`);
    await writeFile(partial, "held by another process\n");
    await expect(openSessionWriter(directory, start)).rejects.toSatisfy(
      (error) => isRathError(error, "conflict") && /already exists/.test(error.message),
    );
    expect(await readFile(partial, "utf8")).toBe("held by another process\n");
    await rm(partial);
    const writer = await openSessionWriter(directory, start);
    await writer.close();
  });

  it("refuses updates from another session, shorter snapshots and use after close", async () => {
    const start = sampleSession();
    const writer = await openSessionWriter(directory, start, { name: "custom" });
    await expect(writer.update(Session.create("user", "other"))).rejects.toThrow(/persists session/);
    await expect(writer.update(Session.fromSnapshot({ ...start.toSnapshot(), chunks: [] }))).rejects.toThrow(/at least 1 chunks, found 0/);
    await writer.close();
    expect(writer.path).toBe(join(directory, "custom.jsonl"));
    await expect(writer.append()).rejects.toThrow(/already closed/);
    await expect(writer.close()).rejects.toThrow(/already closed/);
    await expect(openSessionWriter(directory, start, { name: "../escape" })).rejects.toSatisfy((error) => isRathError(error, "invalid_argument"));
  });

  it("after a failed write, close refuses and keeps the partial file", async () => {
    const start = sampleSession();
    const writer = await openSessionWriter(directory, start);
    await (writer as unknown as { handle: { close(): Promise<void> } }).handle.close();
    await expect(writer.append(makeChunk("user", { content: "lost" }))).rejects.toSatisfy((error) => isRathError(error, "io_error"));
    await expect(writer.close()).rejects.toThrow(/an earlier write failed/);
    expect(existsSync(writer.partialPath)).toBe(true);
    expect(existsSync(writer.path)).toBe(false);
    const again = await openSessionWriter(join(directory, "elsewhere"), start);
    await again.close();
  });

  it("keeps chunk order when appends are not awaited", async () => {
    const start = Session.create("empty");
    const writer = await openSessionWriter(directory, start);
    const pending = Array.from({ length: 20 }, (_, i) => writer.append(makeChunk("user", { content: `m${i}` })));
    await Promise.all(pending);
    await writer.close();
    const { session } = await loadSessionFile(writer.path);
    expect(session.chunks.toArray().map((chunk) => (chunk.kind === "user" ? chunk.payload.content : ""))).toEqual(
      Array.from({ length: 20 }, (_, i) => `m${i}`),
    );
  });
});

describe("openSessionWriter across processes", () => {
  it("refuses a second writer while another process holds the session", async () => {
    const session = sampleSession();
    const writerModule = join(import.meta.dirname, "session-writer.ts");
    const sessionModule = join(import.meta.dirname, "..", "session", "session.ts");
    const child = join(directory, "child.mts");
    await writeFile(
      child,
      [
        `import { openSessionWriter } from ${JSON.stringify(writerModule)};`,
        `import { Session } from ${JSON.stringify(sessionModule)};`,
        `const session = Session.fromSnapshot(JSON.parse(process.argv[2] ?? ""));`,
        `const writer = await openSessionWriter(${JSON.stringify(directory)}, session);`,
        `process.stdout.write("ready\\n");`,
        `process.stdin.resume();`,
        `process.stdin.on("end", () => { void writer.close().then(() => process.stdout.write("closed\\n")); });`,
      ].join("\n"),
    );
    const holder = spawn(process.execPath, ["--import", "tsx", child, JSON.stringify(session.toSnapshot())], {
      cwd: join(import.meta.dirname, "..", ".."),
      stdio: ["pipe", "pipe", "inherit"],
    });
    let output = "";
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on("data", (data: Buffer) => {
        output += data.toString();
        if (output.includes("ready")) resolve();
      });
      holder.on("exit", (code) => reject(new Error(`child exited early with ${code}`)));
    });
    await expect(openSessionWriter(directory, Session.fromSnapshot(session.toSnapshot()))).rejects.toSatisfy(
      (error) => isRathError(error, "conflict") && /already exists/.test(error.message),
    );
    const exited = new Promise<number | null>((resolve) => holder.on("exit", resolve));
    holder.stdin.end();
    expect(await exited).toBe(0);
    expect(output).toContain("closed");
    expect((await loadSessionFile(join(directory, `${session.id}.jsonl`))).facts.closed).toBe(true);
  });
});
