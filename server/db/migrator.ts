/**
 * The project's own migrator (Prisma's `migrate deploy` does not work for PostgreSQL with driver adapters here).
 * It applies prisma/migrations/<provider>/*.sql in name order; each file runs in its own transaction together
 * with its row in `_rath_migrations` (name + sha256 checksum). Re-running is a no-op, and a file whose checksum
 * differs from the applied one is refused: applied migrations are never edited, a new file is added instead.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RathError } from "../../runtime/errors";
import type { DatabaseLocation, DatabaseProvider } from "./database-url";
import {
  openPostgresqlMigrationConnection,
  openSqliteMigrationConnection,
  type MigrationConnection,
} from "./migration-connection";

/** One migration file read from disk. */
export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

/** What a migrator run did: the files it applied now and the ones that were already applied. */
export interface MigrationReport {
  applied: string[];
  alreadyApplied: string[];
}

/** sha256 of a migration's text, hex; line endings are normalised so a checkout on Windows does not differ. */
export function migrationChecksum(sql: string): string {
  return createHash("sha256").update(sql.replace(/\r\n/g, "\n")).digest("hex");
}

/**
 * The checked-in migrations folder of a provider: next to this module's repository root when it exists (tests,
 * tsx, the CLI), else under the working directory (a bundled server started from the repository root).
 */
export function defaultMigrationsDirectory(provider: DatabaseProvider): string {
  const candidates = [
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "prisma", "migrations", provider),
    path.resolve(process.cwd(), "prisma", "migrations", provider),
  ];
  return candidates.find((candidate) => existsSync(candidate)) ?? (candidates[1] as string);
}

/** Reads every `*.sql` file of a migrations folder, sorted by name. */
export function readMigrations(directory: string): MigrationFile[] {
  if (!existsSync(directory)) {
    throw new RathError("invalid_config", `migrations folder not found: expected ${directory} to exist`);
  }
  return readdirSync(directory)
    .filter((file) => file.endsWith(".sql"))
    .sort()
    .map((file) => {
      const sql = readFileSync(path.join(directory, file), "utf8");
      return { name: file.slice(0, -".sql".length), sql, checksum: migrationChecksum(sql) };
    });
}

/** Applies the pending migrations of `directory` to the database at `location`. */
export async function applyMigrations(location: DatabaseLocation, directory?: string): Promise<MigrationReport> {
  const migrations = readMigrations(directory ?? defaultMigrationsDirectory(location.provider));
  const connection: MigrationConnection =
    location.provider === "sqlite"
      ? openSqliteMigrationConnection(location.filePath)
      : await openPostgresqlMigrationConnection(location.connectionString);
  const report: MigrationReport = { applied: [], alreadyApplied: [] };
  try {
    for (const migration of migrations) {
      const outcome = await connection.withLock(async (transaction) => {
        await transaction.ensureTable();
        const applied = await transaction.applied();
        for (const row of applied) {
          const file = migrations.find((candidate) => candidate.name === row.name);
          if (file !== undefined && file.checksum !== row.checksum) {
            throw new RathError(
              "conflict",
              `migration ${row.name} was changed after it was applied: expected checksum ${row.checksum}, found ${file.checksum}; add a new migration instead of editing an applied one`,
              { details: { migration: row.name, applied: row.checksum, found: file.checksum } },
            );
          }
        }
        if (applied.some((row) => row.name === migration.name)) return "already" as const;
        await transaction.executeScript(migration.sql);
        await transaction.record({ name: migration.name, checksum: migration.checksum });
        return "applied" as const;
      });
      (outcome === "applied" ? report.applied : report.alreadyApplied).push(migration.name);
    }
  } finally {
    await connection.close();
  }
  return report;
}
