import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { derivePostgresqlSchema, POSTGRESQL_SCHEMA_PATH, SQLITE_SCHEMA_PATH } from "../../prisma/derive-postgresql-schema";
import { SCHEMA_SNAPSHOT_PATH } from "../../prisma/new-migration";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const read = (relative: string) => readFileSync(path.join(root, relative), "utf8");

describe("schema drift", () => {
  it("the checked-in PostgreSQL schema is exactly the one derived from the SQLite schema", () => {
    expect(read(POSTGRESQL_SCHEMA_PATH)).toBe(derivePostgresqlSchema(read(SQLITE_SCHEMA_PATH)));
  });

  it("the derivation changes provider, url, output and DateTime columns only", () => {
    const derived = derivePostgresqlSchema(read(SQLITE_SCHEMA_PATH));
    expect(derived).toContain('provider = "postgresql"');
    expect(derived).not.toContain('"sqlite"');
    expect(derived).toContain('output       = "../../server/db/generated/postgresql"');
    expect(derived).toMatch(/createdAt\s+DateTime\s+@default\(now\(\)\) @map\("created_at"\) @db\.Timestamptz\(3\)/);
    const modelCount = (text: string) => (text.match(/^model \w+ \{/gm) ?? []).length;
    expect(modelCount(derived)).toBe(modelCount(read(SQLITE_SCHEMA_PATH)));
    expect(() => derivePostgresqlSchema("model X { id String @id }")).toThrow(/expected provider = "sqlite"/);
  });

  it("every schema change has a migration: the snapshot of the last migration equals the schema", () => {
    expect(read(SCHEMA_SNAPSHOT_PATH), "prisma/schema.prisma changed without a migration; run `npm run db:migration -- <name>`").toBe(
      read(SQLITE_SCHEMA_PATH),
    );
  });

  it("both providers have the same migration files", () => {
    const names = (provider: string) => readdirSync(path.join(root, "prisma", "migrations", provider)).filter((file) => file.endsWith(".sql")).sort();
    expect(names("sqlite")).toEqual(names("postgresql"));
    expect(names("sqlite").length).toBeGreaterThan(0);
  });
});
