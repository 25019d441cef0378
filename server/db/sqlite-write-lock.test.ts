/**
 * `database.transaction` on SQLite, against a second connection to the same file (another process's, opened here
 * with better-sqlite3): the write lock is taken before the body reads, and a lock held past the busy timeout
 * makes the whole transaction run again instead of failing.
 */
import BetterSqlite3 from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "./database";
import { createWorkflow, getWorkflow } from "./workflow-store";

describe("database.transaction on SQLite with another connection on the file", () => {
  let directory = "";
  let database: Database | null = null;
  let other: BetterSqlite3.Database | null = null;
  afterEach(async () => {
    other?.close();
    await database?.close();
    rmSync(directory, { recursive: true, force: true });
  });
  async function open(): Promise<{ database: Database; other: BetterSqlite3.Database }> {
    directory = mkdtempSync(path.join(os.tmpdir(), "rath-write-lock-"));
    const filePath = path.join(directory, "studio.db");
    database = await openDatabase({ url: `file:${filePath}` });
    other = new BetterSqlite3(filePath, { timeout: 0 });
    return { database, other };
  }

  it("holds the write lock from the start: the other connection cannot write between the body's read and write", async () => {
    const { database, other } = await open();
    const insertOther = other.prepare(`INSERT INTO "workflows" ("id", "name", "description", "created_at", "updated_at") VALUES ('wf_other', 'other', '', '2026-01-01T00:00:00.000+00:00', '2026-01-01T00:00:00.000+00:00')`);
    let otherError: unknown = null;
    await database.transaction(async (transaction) => {
      const before = await transaction.workflow.count();
      try {
        insertOther.run();
      } catch (error) {
        otherError = error;
      }
      await transaction.workflow.create({ data: { id: "wf_mine", name: `mine after ${before}` } });
    });
    expect((otherError as { code?: string } | null)?.code).toBe("SQLITE_BUSY");
    expect((await getWorkflow(database, "wf_mine"))?.name).toBe("mine after 0");
    insertOther.run();
    expect(await database.client.workflow.count()).toBe(2);
  });

  it("starts the transaction again when the lock is held past the busy timeout; the body runs once, when the lock is held", async () => {
    const { database, other } = await open();
    other.exec("BEGIN IMMEDIATE");
    // Released by a timer: the busy wait blocks this thread, so the release happens between two attempts.
    const release = setTimeout(() => other.exec("COMMIT"), 1_500);
    let bodies = 0;
    const started = Date.now();
    const workflow = await database.transaction(async (transaction) => {
      bodies += 1;
      return transaction.workflow.create({ data: { id: "wf_waited", name: "waited" } });
    });
    clearTimeout(release);
    expect(workflow.id).toBe("wf_waited");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    // The body runs only once the lock is held: the failed attempts stopped at the lock statement before it.
    expect(bodies).toBe(1);
    expect(await database.client.workflow.count()).toBe(1);
  });

  it("a store write waits out another process's write transaction instead of failing", async () => {
    const { database, other } = await open();
    other.exec("BEGIN IMMEDIATE");
    other.exec(`INSERT INTO "workflows" ("id", "name", "description", "created_at", "updated_at") VALUES ('wf_other', 'other', '', '2026-01-01T00:00:00.000+00:00', '2026-01-01T00:00:00.000+00:00')`);
    const release = setTimeout(() => other.exec("COMMIT"), 1_200);
    const created = await createWorkflow(database, { name: "after the other" });
    clearTimeout(release);
    expect((await getWorkflow(database, created.id))?.name).toBe("after the other");
    expect(await database.client.workflow.count()).toBe(2);
  });
});
