import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseDatabaseUrl, redactDatabaseUrl, resolveDatabaseLocation } from "./database-url";

describe("database location", () => {
  const cwd = "/srv/app";

  it("defaults to .rath/studio.db under the working directory", () => {
    expect(resolveDatabaseLocation(undefined, {}, cwd)).toEqual({ provider: "sqlite", filePath: path.join(cwd, ".rath", "studio.db") });
  });

  it("prefers an explicit url, then DATABASE_URL, then RATH_DB_PATH", () => {
    const environment = { DATABASE_URL: "postgres://u:p@h:5432/d", RATH_DB_PATH: "data/x.db" };
    expect(resolveDatabaseLocation("file:other.db", environment, cwd)).toEqual({ provider: "sqlite", filePath: path.join(cwd, "other.db") });
    expect(resolveDatabaseLocation(undefined, environment, cwd)).toEqual({ provider: "postgresql", connectionString: "postgres://u:p@h:5432/d" });
    expect(resolveDatabaseLocation(undefined, { RATH_DB_PATH: "data/x.db", DATABASE_URL: " " }, cwd)).toEqual({
      provider: "sqlite",
      filePath: path.join(cwd, "data", "x.db"),
    });
    expect(resolveDatabaseLocation(undefined, { DATABASE_URL: "file:/abs/s.db" }, cwd)).toEqual({ provider: "sqlite", filePath: "/abs/s.db" });
  });

  it("accepts postgresql:// and refuses other schemes and in-memory SQLite, without leaking passwords", () => {
    expect(parseDatabaseUrl("postgresql://postgres@127.0.0.1/db").provider).toBe("postgresql");
    expect(() => parseDatabaseUrl("mysql://root:hunter2@h/db")).toThrow("unsupported database url 'mysql://root:***@h/db'");
    expect(() => parseDatabaseUrl("file::memory:")).toThrow(/in-memory SQLite/);
    expect(redactDatabaseUrl("postgres://u:secret@h/d")).toBe("postgres://u:***@h/d");
  });
});
