import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import { openDatabase, resolveSqliteSynchronous } from "./database";

const directory = mkdtempSync(path.join(os.tmpdir(), "rath-durability-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function pragma(url: string, options: Parameters<typeof openDatabase>[0] = {}): Promise<{ journal: string; synchronous: number; autocheckpoint: number }> {
  const database = await openDatabase({ ...options, url });
  try {
    const [journal] = await database.client.$queryRawUnsafe<Array<{ journal_mode: string }>>("PRAGMA journal_mode");
    const [synchronous] = await database.client.$queryRawUnsafe<Array<{ synchronous: number | bigint }>>("PRAGMA synchronous");
    const [autocheckpoint] = await database.client.$queryRawUnsafe<Array<{ wal_autocheckpoint: number | bigint }>>("PRAGMA wal_autocheckpoint");
    return { journal: journal?.journal_mode ?? "", synchronous: Number(synchronous?.synchronous), autocheckpoint: Number(autocheckpoint?.wal_autocheckpoint) };
  } finally {
    await database.close();
  }
}

describe("SQLite durability setting", () => {
  it("uses WAL with synchronous=NORMAL by default, FULL when asked, and checkpoints the WAL every 16,000 pages", async () => {
    expect(await pragma(`file:${path.join(directory, "default.db")}`)).toEqual({ journal: "wal", synchronous: 1, autocheckpoint: 16000 });
    expect(await pragma(`file:${path.join(directory, "full.db")}`, { sqliteSynchronous: "full" })).toEqual({ journal: "wal", synchronous: 2, autocheckpoint: 16000 });
  });

  it("reads RATH_SQLITE_SYNCHRONOUS and refuses other values", () => {
    expect(resolveSqliteSynchronous(undefined, {})).toBe("normal");
    expect(resolveSqliteSynchronous(undefined, { RATH_SQLITE_SYNCHRONOUS: " FULL " })).toBe("full");
    expect(resolveSqliteSynchronous("normal", { RATH_SQLITE_SYNCHRONOUS: "full" })).toBe("normal");
    const refusal = (() => {
      try {
        resolveSqliteSynchronous(undefined, { RATH_SQLITE_SYNCHRONOUS: "off" });
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(isRathError(refusal, "invalid_config")).toBe(true);
    expect((refusal as Error).message).toContain('found "off"');
  });
});
