import { describe, expect, it } from "vitest";
import { isRathError, RathError } from "../../runtime/errors";
import { isSqliteBusyError, retryWhileSqliteBusy } from "./sqlite-busy";

/** A better-sqlite3 error as the driver throws it. */
function sqliteError(code: string): Error {
  return Object.assign(new Error("database is locked"), { name: "SqliteError", code });
}

/** Prisma's wrapping of SQLITE_BUSY by the better-sqlite3 adapter (P1008 "Operation has timed out"). */
function prismaTimeout(): Error {
  return Object.assign(new Error("Operation has timed out"), {
    name: "PrismaClientKnownRequestError",
    code: "P1008",
    meta: { modelName: "Run", driverAdapterError: { name: "DriverAdapterError", cause: { originalCode: "SQLITE_BUSY", originalMessage: "database is locked", kind: "SocketTimeout" } } },
  });
}

describe("isSqliteBusyError", () => {
  it("recognises SQLITE_BUSY from the driver, from Prisma, as SQLITE_BUSY_SNAPSHOT and as a cause", () => {
    expect(isSqliteBusyError(sqliteError("SQLITE_BUSY"))).toBe(true);
    expect(isSqliteBusyError(sqliteError("SQLITE_BUSY_SNAPSHOT"))).toBe(true);
    expect(isSqliteBusyError(prismaTimeout())).toBe(true);
    expect(isSqliteBusyError(Object.assign(new Error("database is locked"), { name: "PrismaClientKnownRequestError", code: "SQLITE_BUSY_SNAPSHOT" }))).toBe(true);
    expect(isSqliteBusyError(new Error("outer", { cause: sqliteError("SQLITE_BUSY") }))).toBe(true);
  });

  it("rejects other errors, RathErrors whatever their cause, and non-errors", () => {
    expect(isSqliteBusyError(sqliteError("SQLITE_CONSTRAINT_UNIQUE"))).toBe(false);
    expect(isSqliteBusyError(Object.assign(new Error("timed out"), { code: "P1008", meta: {} }))).toBe(false);
    expect(isSqliteBusyError(new RathError("io_error", "gave up", { cause: sqliteError("SQLITE_BUSY") }))).toBe(false);
    expect(isSqliteBusyError("SQLITE_BUSY")).toBe(false);
    expect(isSqliteBusyError(null)).toBe(false);
  });
});

describe("retryWhileSqliteBusy", () => {
  it("runs the attempt again after busy errors, with doubling jittered delays, and returns its result", async () => {
    const sleeps: number[] = [];
    let attempts = 0;
    const result = await retryWhileSqliteBusy(
      async () => {
        attempts += 1;
        if (attempts === 1) throw sqliteError("SQLITE_BUSY_SNAPSHOT");
        if (attempts <= 3) throw prismaTimeout();
        return "committed";
      },
      { random: () => 0.5, sleep: async (milliseconds) => void sleeps.push(milliseconds) },
    );
    expect(result).toBe("committed");
    expect(attempts).toBe(4);
    // ceilings 2, 4, 8 ms; delay = ceiling/2 + 0.5 * ceiling/2.
    expect(sleeps).toEqual([2, 3, 6]);
  });

  it("caps the delay at 100 ms", async () => {
    const sleeps: number[] = [];
    let attempts = 0;
    await retryWhileSqliteBusy(
      async () => {
        attempts += 1;
        if (attempts <= 9) throw sqliteError("SQLITE_BUSY");
      },
      { random: () => 0.999, sleep: async (milliseconds) => void sleeps.push(milliseconds) },
    );
    expect(sleeps.at(-1)).toBe(100);
    expect(Math.max(...sleeps)).toBe(100);
  });

  it("throws other errors at once without retrying", async () => {
    let attempts = 0;
    const conflict = new RathError("conflict", "stale version");
    await expect(
      retryWhileSqliteBusy(async () => {
        attempts += 1;
        throw conflict;
      }),
    ).rejects.toBe(conflict);
    expect(attempts).toBe(1);
  });

  it("gives up with io_error once the budget is spent, naming the subject, with the busy error as cause", async () => {
    const busy = sqliteError("SQLITE_BUSY");
    let attempts = 0;
    const failure = await retryWhileSqliteBusy(
      async () => {
        attempts += 1;
        throw busy;
      },
      { budgetMs: 0, subject: "SQLite database /tmp/x.db", sleep: async () => undefined },
    ).catch((error: unknown) => error);
    expect(attempts).toBe(1);
    expect(isRathError(failure, "io_error")).toBe(true);
    expect((failure as RathError).message).toMatch(/^SQLite database \/tmp\/x\.db stayed locked by another connection: expected the lock within 0 ms/);
    expect((failure as RathError).cause).toBe(busy);
  });
});
