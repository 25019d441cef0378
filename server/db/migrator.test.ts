import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import { parseDatabaseUrl } from "./database-url";
import { applyMigrations, defaultMigrationsDirectory, migrationChecksum, readMigrations } from "./migrator";
import { describeEachDatabase } from "./testing/test-databases";

const temporaryFolders: string[] = [];
afterAll(() => {
  for (const folder of temporaryFolders) rmSync(folder, { recursive: true, force: true });
});

/** A copy of the provider's checked-in migrations, which a test may edit. */
function copyMigrations(provider: "sqlite" | "postgresql"): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), "rath-migrations-"));
  temporaryFolders.push(folder);
  const source = defaultMigrationsDirectory(provider);
  for (const file of readdirSync(source)) copyFileSync(path.join(source, file), path.join(folder, file));
  return folder;
}

async function tableNames(url: string): Promise<string[]> {
  const location = parseDatabaseUrl(url);
  if (location.provider === "sqlite") {
    const database = new BetterSqlite3(location.filePath, { readonly: true });
    const rows = database.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as Array<{ name: string }>;
    database.close();
    return rows.map((row) => row.name);
  }
  const client = new pg.Client({ connectionString: location.connectionString });
  await client.connect();
  const result = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
  );
  await client.end();
  return result.rows.map((row) => row.name);
}

it("reads the checked-in migrations in name order with sha256 checksums", () => {
  const migrations = readMigrations(defaultMigrationsDirectory("sqlite"));
  expect(migrations.map((migration) => migration.name)).toEqual(["0001_init"]);
  expect(migrations[0]?.checksum).toBe(migrationChecksum(migrations[0]?.sql ?? ""));
  expect(migrations[0]?.checksum).toMatch(/^[0-9a-f]{64}$/);
  expect(migrationChecksum("a\r\nb")).toBe(migrationChecksum("a\nb"));
});

describeEachDatabase("migrator", (open, provider) => {
  it("applies 0001_init to a fresh database at open, creating every table", async () => {
    const { url, database } = await open();
    expect(database.migrations).toEqual({ applied: ["0001_init"], alreadyApplied: [] });
    const tables = await tableNames(url);
    for (const table of ["_rath_migrations", "workflows", "workflow_revisions", "runs", "run_events", "checkpoints", "sessions",
      "session_parents", "chunks", "effects", "interrupts", "provider_settings"]) {
      expect(tables).toContain(table);
    }
  });

  it("is idempotent: a second run applies nothing", async () => {
    const { url, openAnother } = await open();
    expect(await applyMigrations(parseDatabaseUrl(url))).toEqual({ applied: [], alreadyApplied: ["0001_init"] });
    const again = await openAnother();
    expect(again.migrations).toEqual({ applied: [], alreadyApplied: ["0001_init"] });
  });

  it("applies a new file once, and refuses an applied file whose checksum changed", async () => {
    const folder = copyMigrations(provider);
    const { url } = await open({ migrationsDirectory: folder });
    const location = parseDatabaseUrl(url);
    writeFileSync(path.join(folder, "0002_extra.sql"), `CREATE TABLE "extra" ("id" TEXT NOT NULL PRIMARY KEY);\n`);
    expect(await applyMigrations(location, folder)).toEqual({ applied: ["0002_extra"], alreadyApplied: ["0001_init"] });
    expect(await tableNames(url)).toContain("extra");

    appendFileSync(path.join(folder, "0002_extra.sql"), `CREATE TABLE "sneaky" ("id" TEXT);\n`);
    const refusal = await applyMigrations(location, folder).catch((error: unknown) => error);
    expect(isRathError(refusal, "conflict")).toBe(true);
    expect((refusal as Error).message).toContain("migration 0002_extra was changed after it was applied");
    expect(await tableNames(url)).not.toContain("sneaky");
  });

  it("refuses a migration that leaves a row pointing at nothing", async () => {
    const folder = copyMigrations(provider);
    const { url } = await open({ migrationsDirectory: folder });
    writeFileSync(
      path.join(folder, "0002_orphan.sql"),
      `INSERT INTO "run_events" ("run_id", "seq", "type", "payload") VALUES ('no-such-run', 1, 'x', '{}');\n`,
    );
    await expect(applyMigrations(parseDatabaseUrl(url), folder)).rejects.toThrow(/foreign key/i);
    rmSync(path.join(folder, "0002_orphan.sql"));
    expect(await applyMigrations(parseDatabaseUrl(url), folder)).toEqual({ applied: [], alreadyApplied: ["0001_init"] });
  });

  it("rolls back a failing file entirely and does not record it", async () => {
    const folder = copyMigrations(provider);
    const { url } = await open({ migrationsDirectory: folder });
    const location = parseDatabaseUrl(url);
    writeFileSync(path.join(folder, "0002_broken.sql"), `CREATE TABLE "half" ("id" TEXT);\nCREATE TABLE "half" ("id" TEXT);\n`);
    await expect(applyMigrations(location, folder)).rejects.toThrow();
    expect(await tableNames(url)).not.toContain("half");
    rmSync(path.join(folder, "0002_broken.sql"));
    expect(await applyMigrations(location, folder)).toEqual({ applied: [], alreadyApplied: ["0001_init"] });
  });
});
