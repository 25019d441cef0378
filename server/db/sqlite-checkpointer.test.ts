import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, sqliteCheckpointerOf } from "./database";
import { startSqliteCheckpointer, type SqliteCheckpointer } from "./sqlite-checkpointer";

const directory = mkdtempSync(path.join(os.tmpdir(), "rath-checkpointer-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A WAL file of 1,024-byte pages with one table, its app connection's autocheckpoint off (so only the thread checkpoints). */
function walFile(name: string): { file: string; connection: BetterSqlite3.Database } {
  const file = path.join(directory, name);
  const connection = new BetterSqlite3(file);
  connection.pragma("page_size = 1024");
  connection.pragma("journal_mode = WAL");
  connection.pragma("synchronous = NORMAL");
  connection.pragma("wal_autocheckpoint = 0");
  connection.exec("CREATE TABLE rows (id INTEGER PRIMARY KEY, body BLOB NOT NULL)");
  return { file, connection };
}

async function statsOf(checkpointer: SqliteCheckpointer): Promise<NonNullable<Awaited<ReturnType<SqliteCheckpointer["stats"]>>>> {
  const stats = await checkpointer.stats();
  if (stats === null) throw new Error("expected the checkpoint thread to be running");
  return stats;
}

describe("SQLite checkpoint thread", () => {
  it("copies the WAL while commits keep coming and restarts it, so the WAL stays bounded and every row is kept", async () => {
    const { file, connection } = walFile("bounded.db");
    const errors: Error[] = [];
    const checkpointer = startSqliteCheckpointer({ filePath: file, restartPages: 100, intervalMs: 2, busyTimeoutMs: 1_000, onError: (error) => errors.push(error) });
    try {
      expect(await checkpointer.started).toBe(true);
      const insert = connection.prepare("INSERT INTO rows (body) VALUES (?)");
      const body = Buffer.alloc(3_000, 7);
      // 60 bursts of 20 commits, each ~4 pages: ~4,800 WAL frames in all if nothing restarted the WAL.
      for (let burst = 0; burst < 60; burst += 1) {
        for (let commit = 0; commit < 20; commit += 1) insert.run(body);
        await sleep(5);
      }
      // Wait (bounded) for the thread to have restarted the WAL at least twice.
      for (let wait = 0; wait < 200 && (await statsOf(checkpointer)).restarts < 2; wait += 1) await sleep(10);
      const stats = await statsOf(checkpointer);
      expect(stats.restarts).toBeGreaterThanOrEqual(2);
      expect(stats.passive).toBeGreaterThan(stats.restarts);
      // The WAL file never grew past a fraction of what was written (1,200 commits of ~4 pages of 1 KB).
      const walBytes = statSync(`${file}-wal`).size;
      expect(walBytes).toBeLessThan(1_200 * 4 * 1_024 * 0.5);
      expect(stats.largestWalFrames).toBeGreaterThanOrEqual(100);
      expect(connection.prepare("SELECT count(*) AS count FROM rows").get()).toEqual({ count: 1_200 });
      expect(connection.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(errors).toEqual([]);
    } finally {
      await checkpointer.close();
      connection.close();
    }
    // What was committed is in the file, whoever checkpointed it.
    const reopened = new BetterSqlite3(file, { readonly: true });
    expect(reopened.prepare("SELECT count(*) AS count FROM rows").get()).toEqual({ count: 1_200 });
    reopened.close();
  }, 30_000);

  it("keeps running when another connection checkpoints the same file (two threads, as with two processes)", async () => {
    const { file, connection } = walFile("two-threads.db");
    const errors: Error[] = [];
    const options = { filePath: file, restartPages: 50, intervalMs: 1, busyTimeoutMs: 1_000, onError: (error: Error) => errors.push(error) };
    const first = startSqliteCheckpointer(options);
    const second = startSqliteCheckpointer(options);
    try {
      expect(await first.started).toBe(true);
      expect(await second.started).toBe(true);
      const insert = connection.prepare("INSERT INTO rows (body) VALUES (?)");
      const body = Buffer.alloc(3_000, 7);
      for (let burst = 0; burst < 40; burst += 1) {
        for (let commit = 0; commit < 20; commit += 1) insert.run(body);
        // The app connection checkpoints too, now and then, as its autocheckpoint would.
        if (burst % 4 === 0) connection.pragma("wal_checkpoint(PASSIVE)");
        await sleep(3);
      }
      const [one, two] = [await statsOf(first), await statsOf(second)];
      expect(one.passive + two.passive).toBeGreaterThan(2);
      expect(errors).toEqual([]);
      expect(connection.prepare("SELECT count(*) AS count FROM rows").get()).toEqual({ count: 800 });
    } finally {
      await first.close();
      await second.close();
      connection.close();
    }
  }, 30_000);

  it("holds the gate up while a RESTART holds the write lock, so a writer waits for its end instead of polling", async () => {
    const { file, connection } = walFile("gate.db");
    const insert = connection.prepare("INSERT INTO rows (body) VALUES (?)");
    const body = Buffer.alloc(3_000, 7);
    for (let commit = 0; commit < 20; commit += 1) insert.run(body);
    // A reader on an old snapshot: the RESTART cannot finish while it reads, so it waits its busy timeout.
    const reader = new BetterSqlite3(file);
    reader.exec("BEGIN");
    expect(reader.prepare("SELECT count(*) AS count FROM rows").get()).toEqual({ count: 20 });
    for (let commit = 0; commit < 20; commit += 1) insert.run(body);
    const errors: Error[] = [];
    const checkpointer = startSqliteCheckpointer({ filePath: file, restartPages: 10, intervalMs: 5, busyTimeoutMs: 400, onError: (error) => errors.push(error) });
    try {
      expect(await checkpointer.started).toBe(true);
      // Not restarting yet at most moments: the gate is down and the call returns at once.
      let longest = 0;
      for (let attempt = 0; attempt < 300 && longest < 100; attempt += 1) {
        const started = performance.now();
        checkpointer.waitWhileRestarting(2_000);
        longest = Math.max(longest, performance.now() - started);
        if (longest < 100) await sleep(2);
      }
      // One call caught a RESTART and was held until it gave up on the reader (its 400 ms busy timeout).
      expect(longest).toBeGreaterThanOrEqual(200);
      expect(longest).toBeLessThan(1_500);
      expect((await statsOf(checkpointer)).busyRestarts).toBeGreaterThanOrEqual(1);
      // The caught wait is counted, with its length.
      const counted = checkpointer.writerWaits();
      expect(counted.count).toBeGreaterThanOrEqual(1);
      expect(counted.ms).toBeGreaterThanOrEqual(longest - 1);
      reader.exec("COMMIT");
      for (let wait = 0; wait < 200 && (await statsOf(checkpointer)).restarts < 1; wait += 1) await sleep(10);
      expect((await statsOf(checkpointer)).restarts).toBeGreaterThanOrEqual(1);
      // With no RESTART running the gate is down.
      const started = performance.now();
      for (let call = 0; call < 100; call += 1) checkpointer.waitWhileRestarting(2_000);
      expect(performance.now() - started).toBeLessThan(50);
      expect(checkpointer.writerWaits().count).toBeLessThanOrEqual(counted.count + 1);
      expect(errors).toEqual([]);
    } finally {
      if (reader.inTransaction) reader.exec("COMMIT");
      reader.close();
      await checkpointer.close();
      connection.close();
    }
  }, 30_000);

  it("reports a file it cannot open and a file not in WAL mode, and does not start", async () => {
    const errors: Error[] = [];
    const missing = startSqliteCheckpointer({ filePath: path.join(directory, "missing.db"), restartPages: 100, intervalMs: 5, busyTimeoutMs: 100, onError: (error) => errors.push(error) });
    expect(await missing.started).toBe(false);
    expect(await missing.stats()).toBeNull();
    await missing.close();
    const rollback = path.join(directory, "rollback.db");
    const connection = new BetterSqlite3(rollback);
    connection.exec("CREATE TABLE t (x)");
    const notWal = startSqliteCheckpointer({ filePath: rollback, restartPages: 100, intervalMs: 5, busyTimeoutMs: 100, onError: (error) => errors.push(error) });
    expect(await notWal.started).toBe(false);
    await notWal.close();
    connection.close();
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/^SQLite checkpoint thread for .*missing\.db stopped: .*(does not exist|unable to open)/),
      expect.stringMatching(/^SQLite checkpoint thread for .*rollback\.db stopped: the database is not in WAL mode \(journal_mode delete\)$/),
    ]);
  });

  it("runs for each open SQLite file and stops with its last handle, before the app connection closes", async () => {
    const url = `file:${path.join(directory, "handles.db")}`;
    const first = await openDatabase({ url });
    const second = await openDatabase({ url });
    const checkpointer = sqliteCheckpointerOf(first);
    expect(checkpointer).not.toBeNull();
    expect(sqliteCheckpointerOf(second)).toBe(checkpointer);
    expect(await checkpointer?.started).toBe(true);
    // The app connection keeps its inline autocheckpoint as the bound if the thread falls behind or stops.
    const [autocheckpoint] = await first.client.$queryRawUnsafe<Array<{ wal_autocheckpoint: number | bigint }>>("PRAGMA wal_autocheckpoint");
    expect(Number(autocheckpoint?.wal_autocheckpoint)).toBe(16_000);
    await first.close();
    expect(await checkpointer?.stats()).toMatchObject({ restarts: 0 });
    await second.close();
    expect(await checkpointer?.stats()).toBeNull();
    // The app connection closed last, so it removed the WAL as before.
    expect(() => statSync(`${path.join(directory, "handles.db")}-wal`)).toThrow();
  });
});
