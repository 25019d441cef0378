/**
 * Raw SQL for the hot paths (step commits, chunk reads): one statement skips Prisma's query compiler, which costs
 * several times the statement itself on SQLite. Statements are written once with `?` placeholders and numbered
 * (`$1`, `$2`, ...) for PostgreSQL; multi-row inserts are split so no statement exceeds either provider's limit.
 */
import type { DatabaseProvider } from "./database-url";
import type { TransactionClient } from "./database";

/** Most parameters one statement binds (SQLite allows 32 766, PostgreSQL 65 535). */
const MAX_PARAMETERS = 30_000;

/** A value bound to a placeholder. */
export type SqlValue = string | number | boolean | Date | null;

/** The statement for `provider`: `?` placeholders as they are (SQLite) or numbered `$n` (PostgreSQL). */
export function forProvider(provider: DatabaseProvider, sql: string): string {
  if (provider === "sqlite") return sql;
  let number = 0;
  return sql.replace(/\?/g, () => `$${(number += 1)}`);
}

/** `(?, ?, ...), (?, ?, ...)`: `rows` groups of `columns` placeholders. */
export function valueGroups(rows: number, columns: number): string {
  const group = `(${Array.from({ length: columns }, () => "?").join(", ")})`;
  return Array.from({ length: rows }, () => group).join(", ");
}

/** Inserts `rows` (each one value per column, in column order) into `table`, in as few statements as the limits allow. */
export async function insertRows(
  transaction: TransactionClient,
  provider: DatabaseProvider,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly SqlValue[])[],
): Promise<void> {
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  const head = `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(", ")}) VALUES `;
  for (let start = 0; start < rows.length; start += perStatement) {
    const batch = rows.slice(start, start + perStatement);
    await transaction.$executeRawUnsafe(forProvider(provider, head + valueGroups(batch.length, columns.length)), ...batch.flat());
  }
}

/** `?, ?, ?` for an `IN (...)` list of `count` values. */
export function inList(count: number): string {
  return Array.from({ length: count }, () => "?").join(", ");
}
