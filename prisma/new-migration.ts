/**
 * Writes the next SQL migration for both providers: `npx tsx prisma/new-migration.ts <name>`.
 * It diffs prisma/migrations/schema-snapshot.prisma (the SQLite schema as of the last migration) against
 * prisma/schema.prisma with `prisma migrate diff --script` (no database needed), once per provider, writes
 * prisma/migrations/{sqlite,postgresql}/<NNNN>_<name>.sql, re-derives the PostgreSQL schema and updates the
 * snapshot. server/db/schema-drift.test.ts fails when the schema changed without a migration.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { derivePostgresqlSchema, POSTGRESQL_SCHEMA_PATH, SQLITE_SCHEMA_PATH, writePostgresqlSchema } from "./derive-postgresql-schema";

/** The SQLite schema as of the last generated migration, relative to the repository root. */
export const SCHEMA_SNAPSHOT_PATH = path.join("prisma", "migrations", "schema-snapshot.prisma");

function diff(root: string, config: string, from: string, to: string): string {
  return execFileSync(
    "npx",
    ["prisma", "migrate", "diff", "--config", config, "--from-schema-datamodel", from, "--to-schema-datamodel", to, "--script"],
    { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
}

function nextNumber(directory: string): string {
  const numbers = readdirSync(directory)
    .map((file) => /^(\d{4})_.*\.sql$/.exec(file)?.[1])
    .filter((value): value is string => value !== undefined)
    .map(Number);
  return String(Math.max(0, ...numbers) + 1).padStart(4, "0");
}

function main(): void {
  const name = process.argv[2];
  if (name === undefined || !/^[a-z0-9_]+$/.test(name)) {
    throw new Error(`usage: tsx prisma/new-migration.ts <name>; expected a snake_case name, found ${JSON.stringify(name)}`);
  }
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  writePostgresqlSchema(root);
  const temporary = mkdtempSync(path.join(os.tmpdir(), "rath-migration-"));
  try {
    const snapshotPostgresql = path.join(temporary, "snapshot-postgresql.prisma");
    writeFileSync(snapshotPostgresql, derivePostgresqlSchema(readFileSync(path.join(root, SCHEMA_SNAPSHOT_PATH), "utf8")));
    const targets = [
      { provider: "sqlite", config: "prisma.config.ts", from: SCHEMA_SNAPSHOT_PATH, to: SQLITE_SCHEMA_PATH },
      { provider: "postgresql", config: "prisma.postgresql.config.ts", from: snapshotPostgresql, to: POSTGRESQL_SCHEMA_PATH },
    ];
    for (const target of targets) {
      const script = diff(root, target.config, target.from, target.to);
      const directory = path.join(root, "prisma", "migrations", target.provider);
      const file = path.join(directory, `${nextNumber(directory)}_${name}.sql`);
      writeFileSync(file, script);
      console.log(`new-migration: wrote ${path.relative(root, file)}`);
    }
    copyFileSync(path.join(root, SQLITE_SCHEMA_PATH), path.join(root, SCHEMA_SNAPSHOT_PATH));
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main();
}
