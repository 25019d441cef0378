/**
 * Derives the PostgreSQL Prisma schema from the SQLite source of truth (prisma/schema.prisma): it rewrites the
 * datasource provider and url, the generated client's output folder, and maps DateTime columns to timestamptz.
 * Run `npx tsx prisma/derive-postgresql-schema.ts` to write prisma/postgresql/schema.prisma; the test in
 * server/db/schema-drift.test.ts fails when the checked-in file differs from what this function produces.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Path of the SQLite source-of-truth schema, relative to the repository root. */
export const SQLITE_SCHEMA_PATH = path.join("prisma", "schema.prisma");
/** Path of the derived PostgreSQL schema, relative to the repository root. */
export const POSTGRESQL_SCHEMA_PATH = path.join("prisma", "postgresql", "schema.prisma");

const HEADER =
  "// GENERATED from prisma/schema.prisma by prisma/derive-postgresql-schema.ts - do not edit by hand.\n" +
  "// Edit the SQLite schema, then run `npx tsx prisma/derive-postgresql-schema.ts` (or `npm run db:generate`).\n\n";

function replaceOnce(text: string, pattern: RegExp, replacement: string, what: string): string {
  if (!pattern.test(text)) {
    throw new Error(`derive-postgresql-schema: expected ${what} in prisma/schema.prisma (pattern ${pattern}), found none`);
  }
  return text.replace(pattern, replacement);
}

/** Returns the PostgreSQL schema text for the given SQLite schema text (pure; same input, same output). */
export function derivePostgresqlSchema(sqliteSchema: string): string {
  let text = sqliteSchema.replace(/\r\n/g, "\n");
  text = replaceOnce(text, /provider\s*=\s*"sqlite"/, 'provider = "postgresql"', 'provider = "sqlite"');
  text = replaceOnce(
    text,
    /url\s*=\s*"file:[^"]*"/,
    'url      = "postgresql://postgres@127.0.0.1:5432/postgres"',
    'a url = "file:..." datasource url',
  );
  text = replaceOnce(
    text,
    /output\s*=\s*"\.\.\/server\/db\/generated\/sqlite"/,
    'output       = "../../server/db/generated/postgresql"',
    'output = "../server/db/generated/sqlite"',
  );
  text = text.replace(/^(\s+\w+\s+DateTime\??)(\s.*)?$/gm, (_line, field: string, rest: string | undefined) => {
    const attributes = rest ?? "";
    if (attributes.includes("@db.")) return `${field}${attributes}`;
    return `${field}${attributes} @db.Timestamptz(3)`;
  });
  return HEADER + text;
}

/** Reads the SQLite schema under `root` and writes the derived PostgreSQL schema; returns the written path. */
export function writePostgresqlSchema(root: string): string {
  const source = readFileSync(path.join(root, SQLITE_SCHEMA_PATH), "utf8");
  const target = path.join(root, POSTGRESQL_SCHEMA_PATH);
  writeFileSync(target, derivePostgresqlSchema(source));
  return target;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const written = writePostgresqlSchema(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));
  console.log(`derive-postgresql-schema: wrote ${path.relative(process.cwd(), written)}`);
}
