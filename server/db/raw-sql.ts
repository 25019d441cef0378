/**
 * Raw SQL for the hot paths (step commits, chunk reads): one statement skips Prisma's query compiler, which costs
 * several times the statement itself on SQLite. Statements are written once with `?` placeholders and numbered
 * (`$1`, `$2`, ...) for PostgreSQL; multi-row inserts are split so no statement exceeds either provider's limit.
 * Inside a transaction on SQLite they bypass Prisma altogether and run on the adapter's connection
 * (`rawStatements`): a prepared better-sqlite3 statement costs a tenth of a Prisma raw query.
 */
import type { Pool as PostgresPool } from "pg";
import { RathError } from "../../runtime/errors";
import { postgresPoolOf, sqliteConnectionOf, type Database, type SqliteConnection, type TransactionClient } from "./database";
import type { DatabaseProvider } from "./database-url";
import { noteTransactionEvents } from "./run-event-signal";

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
  const key = rows * 1_000 + columns;
  let groups = valueGroupsCache.get(key);
  if (groups === undefined) {
    groups = buildValueGroups(rows, columns);
    if (valueGroupsCache.size >= STATEMENT_CACHE_SIZE) valueGroupsCache.clear();
    valueGroupsCache.set(key, groups);
  }
  return groups;
}

const valueGroupsCache = new Map<number, string>();

function buildValueGroups(rows: number, columns: number): string {
  const group = `(${Array.from({ length: columns }, () => "?").join(", ")})`;
  return Array.from({ length: rows }, () => group).join(", ");
}

/** Runs raw statements inside one open transaction. */
export interface RawStatements {
  /** Rows of a statement written with `?` placeholders. */
  query<Row>(sql: string, ...values: SqlValue[]): Promise<Row[]>;
  /** Runs a statement; returns the number of rows it changed. */
  execute(sql: string, ...values: SqlValue[]): Promise<number>;
  /** Notes that `runId` has events up to `lastSeq`: announced to live readers when the transaction commits. */
  noteAppendedEvents(runId: string, lastSeq: number): void;
}

/** Most prepared statements kept per SQLite connection (the multi-row inserts vary with the row count). */
const STATEMENT_CACHE_SIZE = 256;
const statementCaches = new WeakMap<SqliteConnection, Map<string, ReturnType<SqliteConnection["prepare"]>>>();

function prepared(connection: SqliteConnection, sql: string): ReturnType<SqliteConnection["prepare"]> {
  let cache = statementCaches.get(connection);
  if (cache === undefined) {
    cache = new Map();
    statementCaches.set(connection, cache);
  }
  let statement = cache.get(sql);
  if (statement === undefined) {
    if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear();
    statement = connection.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}

/** The last timestamp written and its text: a step commit writes the same `now` into most of its rows. */
let lastTimestamp = { time: Number.NaN, text: "" };

/** A value as the Prisma SQLite adapter writes it: ISO timestamps with `+00:00`, booleans as 0/1. */
function sqliteValue(value: SqlValue): unknown {
  if (value instanceof Date) {
    const time = value.getTime();
    if (time !== lastTimestamp.time) lastTimestamp = { time, text: value.toISOString().replace("Z", "+00:00") };
    return lastTimestamp.text;
  }
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

/** A SQLite constraint failure as the store's errors (the same codes Prisma's errors map to). */
function sqliteError(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_UNIQUE") {
    return new RathError("conflict", `a row with the same unique key already exists (${message})`, { cause: error });
  }
  if (code === "SQLITE_CONSTRAINT_FOREIGNKEY") return new RathError("invalid_argument", `a referenced row does not exist (${message})`, { cause: error });
  return error;
}

/** Statements run synchronously on SQLite's connection (inside a transaction that holds it). */
export interface SyncStatements {
  query<Row>(sql: string, ...values: SqlValue[]): Row[];
  execute(sql: string, ...values: SqlValue[]): number;
  /** `insertRowsNow`: the rows in as few multi-row INSERTs as the limits allow. */
  insertRows(table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[]): void;
}

const syncStatements = new WeakMap<SqliteConnection, SyncStatements>();

/** Synchronous statements on a better-sqlite3 connection: prepared once, values as the Prisma adapter writes them. */
export function sqliteStatements(connection: SqliteConnection): SyncStatements {
  let statements = syncStatements.get(connection);
  if (statements === undefined) {
    statements = {
      query<Row>(sql: string, ...values: SqlValue[]) {
        try {
          return prepared(connection, sql).all(...values.map(sqliteValue)) as Row[];
        } catch (error) {
          throw sqliteError(error);
        }
      },
      execute(sql: string, ...values: SqlValue[]) {
        try {
          return prepared(connection, sql).run(...values.map(sqliteValue)).changes;
        } catch (error) {
          throw sqliteError(error);
        }
      },
      insertRows(table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[]) {
        const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
        for (let start = 0; start < rows.length; start += perStatement) {
          const end = Math.min(rows.length, start + perStatement);
          const values: unknown[] = [];
          for (let row = start; row < end; row += 1) for (const value of rows[row] as readonly SqlValue[]) values.push(sqliteValue(value));
          try {
            prepared(connection, insertSql(table, columns, end - start)).run(...values);
          } catch (error) {
            throw sqliteError(error);
          }
        }
      },
    };
    syncStatements.set(connection, statements);
  }
  return statements;
}

/**
 * The raw statements of `transaction`: on SQLite straight on the adapter's connection (synchronous, prepared once;
 * the transaction holds the connection, so they are part of it), else through Prisma's raw queries.
 */
export function rawStatements(database: Pick<Database, "provider" | "client">, transaction: TransactionClient): RawStatements {
  const connection = database.provider === "sqlite" ? sqliteConnectionOf(database) : null;
  const noteAppendedEvents = (runId: string, lastSeq: number) => noteTransactionEvents(transaction, runId, lastSeq);
  if (connection !== null) {
    const statements = sqliteStatements(connection);
    return {
      query: async <Row>(sql: string, ...values: SqlValue[]) => statements.query<Row>(sql, ...values),
      execute: async (sql: string, ...values: SqlValue[]) => statements.execute(sql, ...values),
      noteAppendedEvents,
    };
  }
  return {
    query: <Row>(sql: string, ...values: SqlValue[]) => transaction.$queryRawUnsafe<Row[]>(forProvider(database.provider, sql), ...values),
    execute: (sql: string, ...values: SqlValue[]) => transaction.$executeRawUnsafe(forProvider(database.provider, sql), ...values),
    noteAppendedEvents,
  };
}

/**
 * A PostgreSQL constraint failure as the store's errors (the codes Prisma's errors map to: unique violation ->
 * conflict, foreign key violation -> invalid_argument); other errors as they are.
 */
export function postgresError(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === "23505") return new RathError("conflict", `a row with the same unique key already exists (${message})`, { cause: error });
  if (code === "23503") return new RathError("invalid_argument", `a referenced row does not exist (${message})`, { cause: error });
  return error;
}

/**
 * Reads rows with one statement written with `?` placeholders straight on a `pg` pool (each statement its own
 * transaction: only for reads that need no transaction's snapshot).
 */
export function poolReader(pool: PostgresPool): <Row>(sql: string, ...values: SqlValue[]) => Promise<Row[]> {
  return async <Row>(sql: string, ...values: SqlValue[]) => {
    try {
      return (await pool.query(forProvider("postgresql", sql), values)).rows as Row[];
    } catch (error) {
      throw postgresError(error);
    }
  };
}

/**
 * `INSERT INTO "table" (...) VALUES (?, ...), ...` for `rows` rows, remembered per table and column list (the hot
 * paths pass the same column arrays), so a repeated insert finds its prepared statement by the same string.
 */
function insertSql(table: string, columns: readonly string[], rows: number): string {
  let byTable = insertSqlCache.get(columns);
  if (byTable === undefined) {
    byTable = new Map();
    insertSqlCache.set(columns, byTable);
  }
  let byRows = byTable.get(table);
  if (byRows === undefined) {
    byRows = new Map();
    byTable.set(table, byRows);
  }
  let sql = byRows.get(rows);
  if (sql === undefined) {
    sql = `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(", ")}) VALUES ${valueGroups(rows, columns.length)}`;
    if (byRows.size >= STATEMENT_CACHE_SIZE) byRows.clear();
    byRows.set(rows, sql);
  }
  return sql;
}

const insertSqlCache = new WeakMap<readonly string[], Map<string, Map<number, string>>>();

/** The `INSERT ... VALUES (...), (...)` statements for `rows`, each with its values, as few as the limits allow. */
function insertStatements(table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[]): Array<{ sql: string; values: SqlValue[] }> {
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  const statements: Array<{ sql: string; values: SqlValue[] }> = [];
  for (let start = 0; start < rows.length; start += perStatement) {
    const batch = rows.slice(start, start + perStatement);
    statements.push({ sql: insertSql(table, columns, batch.length), values: batch.flat() });
  }
  return statements;
}

/** Inserts `rows` (each one value per column, in column order) into `table`, in as few statements as the limits allow. */
export async function insertRows(statements: RawStatements, table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[]): Promise<void> {
  for (const { sql, values } of insertStatements(table, columns, rows)) await statements.execute(sql, ...values);
}

/** `insertRows` on synchronous statements. */
export function insertRowsNow(statements: SyncStatements, table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[]): void {
  statements.insertRows(table, columns, rows);
}

/** `?, ?, ?` for an `IN (...)` list of `count` values. */
export function inList(count: number): string {
  return Array.from({ length: count }, () => "?").join(", ");
}

/**
 * Reads rows with one statement written with `?` placeholders, outside any transaction, by the cheapest path:
 * a prepared statement on SQLite's connection, the `pg` pool on PostgreSQL, else Prisma's raw query. For reads of
 * many rows (a run's graph), where Prisma's row mapping costs several times the statement. Integer columns may
 * come back as numbers or bigints, and timestamps differ per provider: select what needs no conversion.
 */
export function rowReader(database: Pick<Database, "provider" | "client">): <Row>(sql: string, ...values: SqlValue[]) => Promise<Row[]> {
  const connection = database.provider === "sqlite" ? sqliteConnectionOf(database) : null;
  if (connection !== null) {
    const statements = sqliteStatements(connection);
    return async <Row>(sql: string, ...values: SqlValue[]) => statements.query<Row>(sql, ...values);
  }
  const pool = database.provider === "postgresql" ? postgresPoolOf(database) : null;
  if (pool !== null) return poolReader(pool);
  return <Row>(sql: string, ...values: SqlValue[]) => database.client.$queryRawUnsafe<Row[]>(forProvider(database.provider, sql), ...values);
}

/**
 * A timestamp column read as text (`CAST(... AS TEXT)`, the same SQL on both providers): SQLite holds the ISO text
 * the Prisma adapter wrote (`2026-12-01T09:36:18.562+00:00`), PostgreSQL prints `2026-12-01 09:36:18.562+00` for a
 * zoned column and no zone for a plain `timestamp` (which holds UTC).
 */
export function utcTimestamp(value: string | Date): Date {
  if (value instanceof Date) return value;
  const iso = value.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00");
  const parsed = new Date(/(?:Z|[+-]\d\d:?\d\d)$/i.test(iso) ? iso : `${iso}Z`);
  if (Number.isNaN(parsed.getTime())) throw new RathError("internal", `stored timestamp ${JSON.stringify(value)} is not a date`);
  return parsed;
}
