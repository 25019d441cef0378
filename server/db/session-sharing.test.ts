import { beforeAll, expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import { makeChunk } from "../../runtime/session/chunk";
import type { Database } from "./database";
import { commitStep } from "./run-commit";
import { requestCancel } from "./run-store";
import { readSessionChunks } from "./session-chunks";
import type { SessionInput } from "./session-record";
import { chunkPage, getSession } from "./session-store";
import { childSession, claimSeededRun, rejectionOf, rootSession, userChunk } from "./testing/fixtures";
import { describeEachDatabase } from "./testing/test-databases";

/** `count` user chunks of `sessionId` from index `from`, texts "<label> <index>". */
function chunks(sessionId: string, from: number, count: number, label = "message") {
  return Array.from({ length: count }, (_, offset) => userChunk(sessionId, from + offset, `${label} ${from + offset}`));
}

function texts(records: Array<{ chunk: { payload: unknown } }>): string[] {
  return records.map((record) => (record.chunk.payload as { content: string }).content);
}

describeEachDatabase("structural sharing of stored sessions", (open) => {
  let database: Database;

  beforeAll(async () => {
    database = (await open()).database;
  });

  async function chunkRows(sessionId: string): Promise<number> {
    return database.client.chunk.count({ where: { sessionId } });
  }

  it("a fork of a 5,000-chunk session stores no chunk rows, and a fork of the fork points at the original", async () => {
    const { run, fencingToken } = await claimSeededRun(database);
    const root = `${run.id}-root`;
    const fork = `${run.id}-fork`;
    const forkOfFork = `${run.id}-fork2`;
    await commitStep(database, run.id, fencingToken, { sessions: [{ ...rootSession(root), chunkCount: 5000 }], chunks: chunks(root, 0, 5000) });
    await commitStep(database, run.id, fencingToken, {
      sessions: [
        { ...childSession(fork, [root]), chunkCount: 5000, base: { sessionId: root, chunkCount: 5000 } },
        { ...childSession(forkOfFork, [fork]), chunkCount: 5000, base: { sessionId: fork, chunkCount: 5000 } },
      ],
    });
    expect(await chunkRows(root)).toBe(5000);
    expect(await chunkRows(fork)).toBe(0);
    expect(await chunkRows(forkOfFork)).toBe(0);
    expect((await getSession(database, fork))?.base).toEqual({ sessionId: root, chunkCount: 5000 });
    expect((await getSession(database, forkOfFork))?.base).toEqual({ sessionId: root, chunkCount: 5000 });
    const page = await chunkPage(database, forkOfFork, { fromIndex: 4990, limit: 100 });
    expect(page.map((record) => record.index)).toEqual([4990, 4991, 4992, 4993, 4994, 4995, 4996, 4997, 4998, 4999]);
    expect(page.every((record) => record.sessionId === forkOfFork)).toBe(true);
    expect(texts(page)[9]).toBe("message 4999");
    expect((await readSessionChunks(database, fork))?.length).toBe(5000);
  });

  it("a merge stores only the other side's chunks; pages straddle the base boundary", async () => {
    const { run, fencingToken } = await claimSeededRun(database);
    const left = `${run.id}-left`;
    const right = `${run.id}-right`;
    const merged = `${run.id}-merged`;
    await commitStep(database, run.id, fencingToken, {
      sessions: [
        { ...rootSession(left), chunkCount: 30 },
        { ...rootSession(right), chunkCount: 20 },
      ],
      chunks: [...chunks(left, 0, 30, "left"), ...chunks(right, 0, 20, "right")],
    });
    await commitStep(database, run.id, fencingToken, {
      sessions: [{ ...childSession(merged, [left, right], "op_merge"), chunkCount: 50, base: { sessionId: left, chunkCount: 30 } }],
      chunks: Array.from({ length: 20 }, (_, index) => userChunk(merged, 30 + index, `right ${index}`)),
    });
    expect(await chunkRows(merged)).toBe(20);
    const page = await chunkPage(database, merged, { fromIndex: 27, limit: 6 });
    expect(page.map((record) => record.index)).toEqual([27, 28, 29, 30, 31, 32]);
    expect(texts(page)).toEqual(["left 27", "left 28", "left 29", "right 0", "right 1", "right 2"]);
    expect(await chunkPage(database, merged, { fromIndex: 50 })).toEqual([]);
  });

  it("resolves a chain of bases that each add chunks, and never reads past a session's own count", async () => {
    const { run, fencingToken } = await claimSeededRun(database);
    const [a, b, c] = ["a", "b", "c"].map((name) => `${run.id}-${name}`) as [string, string, string];
    await commitStep(database, run.id, fencingToken, { sessions: [{ ...rootSession(a), chunkCount: 3 }], chunks: chunks(a, 0, 3, "a") });
    await commitStep(database, run.id, fencingToken, {
      sessions: [{ ...childSession(b, [a]), chunkCount: 5, base: { sessionId: a, chunkCount: 3 } }],
      chunks: chunks(b, 3, 2, "b"),
    });
    // c shares only 4 of b's 5 chunks (b's last chunk was replaced, like an approval's edit).
    await commitStep(database, run.id, fencingToken, {
      sessions: [{ ...childSession(c, [b]), chunkCount: 6, base: { sessionId: b, chunkCount: 4 } }],
      chunks: chunks(c, 4, 2, "c"),
    });
    expect(texts((await readSessionChunks(database, c)) ?? [])).toEqual(["a 0", "a 1", "a 2", "b 3", "c 4", "c 5"]);
    expect(texts(await chunkPage(database, c, { fromIndex: 2, limit: 3 }))).toEqual(["a 2", "b 3", "c 4"]);
    expect(texts(await chunkPage(database, b, { fromIndex: 0, limit: 100 }))).toEqual(["a 0", "a 1", "a 2", "b 3", "b 4"]);
    expect(await readSessionChunks(database, `${run.id}-none`)).toBeNull();
  });

  it("reads a page spread over more owners than one statement takes (a 60-level chain, one chunk each)", async () => {
    const { run, fencingToken } = await claimSeededRun(database);
    const id = (level: number) => `${run.id}-level${level}`;
    await commitStep(database, run.id, fencingToken, { sessions: [{ ...rootSession(id(0)), chunkCount: 1 }], chunks: chunks(id(0), 0, 1, "level") });
    for (let level = 1; level < 60; level += 1) {
      await commitStep(database, run.id, fencingToken, {
        sessions: [{ ...childSession(id(level), [id(level - 1)]), chunkCount: level + 1, base: { sessionId: id(level - 1), chunkCount: level } }],
        chunks: chunks(id(level), level, 1, "level"),
      });
    }
    expect(await chunkRows(id(59))).toBe(1);
    const all = (await readSessionChunks(database, id(59))) ?? [];
    expect(texts(all)).toEqual(Array.from({ length: 60 }, (_, index) => `level ${index}`));
    expect(all.map((record) => record.index)).toEqual(Array.from({ length: 60 }, (_, index) => index));
    expect(texts(await chunkPage(database, id(59), { fromIndex: 55, limit: 3 }))).toEqual(["level 55", "level 56", "level 57"]);
  });

  it("refuses bases that are not stored or too short, and chunks inside the shared prefix", async () => {
    const { run, fencingToken } = await claimSeededRun(database);
    const root = `${run.id}-root`;
    await commitStep(database, run.id, fencingToken, { sessions: [{ ...rootSession(root), chunkCount: 2 }], chunks: chunks(root, 0, 2) });
    const fork = (base: SessionInput["base"], chunkCount = 3): SessionInput => ({ ...childSession(`${run.id}-f`, [root]), chunkCount, base });
    const missing = await rejectionOf(commitStep(database, run.id, fencingToken, { sessions: [fork({ sessionId: "nope", chunkCount: 2 })], chunks: [userChunk(`${run.id}-f`, 2)] }));
    expect(isRathError(missing, "invalid_argument")).toBe(true);
    expect(missing.message).toContain("base session nope");
    const tooLong = await rejectionOf(commitStep(database, run.id, fencingToken, { sessions: [fork({ sessionId: root, chunkCount: 3 })] }));
    expect(tooLong.message).toContain(`shares 3 chunks with base ${root}, which has 2`);
    const shadowed = await rejectionOf(commitStep(database, run.id, fencingToken, { sessions: [fork({ sessionId: root, chunkCount: 2 })], chunks: [userChunk(`${run.id}-f`, 1)] }));
    expect(shadowed.message).toContain("expected an index from 2 to 2");
    expect(await getSession(database, `${run.id}-f`)).toBeNull();
  });

  it("chunks appended to a session stored by an earlier step grow its chunk count and usage", async () => {
    const { run, fencingToken } = await claimSeededRun(database);
    const session = `${run.id}-s`;
    await commitStep(database, run.id, fencingToken, {
      sessions: [{ ...rootSession(session), chunkCount: 1, usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }],
      chunks: [userChunk(session, 0)],
    });
    const answer = makeChunk("assistant", { content: "answer", tool_calls: [] }, { at: "2026-01-01T00:00:00.000Z", usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
    await commitStep(database, run.id, fencingToken, { chunks: [{ sessionId: session, index: 1, chunk: answer }, userChunk(session, 2, "thanks")] });
    expect(await getSession(database, session)).toMatchObject({ chunkCount: 3, usage: { prompt_tokens: 11, completion_tokens: 6, total_tokens: 17 } });
    const clash = await rejectionOf(commitStep(database, run.id, fencingToken, { chunks: [userChunk(session, 2, "again")] }));
    expect(isRathError(clash, "conflict")).toBe(true);
    expect(clash.message).toContain("append from index 3");
  });

  it("tells the committing worker that a cancel was requested", async () => {
    const { run, fencingToken } = await claimSeededRun(database);
    expect((await commitStep(database, run.id, fencingToken, { events: [{ type: "x", payload: {} }] })).cancelRequested).toBe(false);
    await requestCancel(database, run.id);
    expect((await commitStep(database, run.id, fencingToken, { events: [{ type: "y", payload: {} }] })).cancelRequested).toBe(true);
  });
});
