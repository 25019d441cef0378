/**
 * The two small connections the migrator uses, one per provider, on the native drivers (better-sqlite3, pg):
 * both run a whole multi-statement SQL file, which Prisma's raw query API cannot. Each `withLock` runs its body
 * in one transaction that holds a database-wide write lock, so concurrent migrators apply every file once.
 */
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";

/** One row of the `_rath_migrations` table. */
export interface AppliedMigration {
  name: string;
  checksum: string;
}

/** What the migrator needs from a database connection. */
export interface MigrationConnection {
  /** Runs `body` in one transaction holding the migration lock; rolls back when it throws. */
  withLock<T>(body: (transaction: MigrationTransaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The operations available inside the migration lock. */
export interface MigrationTransaction {
  /** Creates `_rath_migrations` when it is missing. */
  ensureTable(): Promise<void>;
  applied(): Promise<AppliedMigration[]>;
  /** Runs a whole SQL script (several statements). */
  executeScript(sql: string): Promise<void>;
  record(migration: AppliedMigration): Promise<void>;
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_rath_migrations" (
  "name" TEXT NOT NULL PRIMARY KEY,
  "checksum" TEXT NOT NULL,
  "applied_at" TEXT NOT NULL
)`;

const sqliteTurns = new Map<string, Promise<unknown>>();

async function inProcessTurn<T>(key: string, body: () => Promise<T>): Promise<T> {
  const previous = sqliteTurns.get(key) ?? Promise.resolve();
  const current = previous.then(body, body);
  const settled = current.then(
    () => undefined,
    () => undefined,
  );
  sqliteTurns.set(key, settled);
  try {
    return await current;
  } finally {
    if (sqliteTurns.get(key) === settled) sqliteTurns.delete(key);
  }
}

/**
 * Page size of a SQLite file this project creates (bytes). Every commit writes each b-tree page it touched whole into
 * the WAL, and a checkpoint waits for the disk to take those bytes: a step commit touches ~18 pages (the last leaf of
 * each table and index it appends to) to store ~3 KB of rows, so with SQLite's default of 4,096 it wrote ~75 KB of
 * WAL per step; with 2,048 about half (bench/README.md: 1,024 wrote a quarter but ~70 % more pages, and measured no
 * better than 2,048). A value larger than ~2 KB moves its tail to overflow pages. Only a new file takes it: SQLite
 * keeps an existing file's page size.
 */
export const SQLITE_PAGE_SIZE = 2_048;

/** Opens a migration connection to a SQLite file (created when missing; WAL journal mode is set, it persists). */
export function openSqliteMigrationConnection(filePath: string): MigrationConnection {
  const database = new BetterSqlite3(filePath, { timeout: 10_000 });
  // Before anything is written: a no-op on an existing file.
  database.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
  database.pragma("journal_mode = WAL");
  // Foreign keys stay off on this connection: Prisma's SQLite migrations rebuild tables (create, copy, drop,
  // rename), and `PRAGMA foreign_keys` cannot be switched inside the migration's transaction.
  database.pragma("foreign_keys = OFF");
  const transaction: MigrationTransaction = {
    ensureTable: async () => {
      database.exec(CREATE_TABLE);
    },
    applied: async () =>
      database.prepare(`SELECT "name", "checksum" FROM "_rath_migrations" ORDER BY "name"`).all() as AppliedMigration[],
    executeScript: async (sql) => {
      database.exec(sql);
      // With foreign keys off the script is not checked as it runs, so check the result before committing.
      const violations = database.pragma("foreign_key_check") as unknown[];
      if (violations.length > 0) {
        throw new Error(`migration left ${violations.length} foreign key violation(s), e.g. ${JSON.stringify(violations[0])}`);
      }
    },
    record: async ({ name, checksum }) => {
      database
        .prepare(`INSERT INTO "_rath_migrations" ("name", "checksum", "applied_at") VALUES (?, ?, ?)`)
        .run(name, checksum, new Date().toISOString());
    },
  };
  return {
    async withLock(body) {
      // Within one process, migrators of the same file take turns: better-sqlite3 waits for a busy lock
      // synchronously, so a second BEGIN IMMEDIATE on this thread would block the first one's COMMIT.
      return inProcessTurn(filePath, async () => {
        // BEGIN IMMEDIATE takes SQLite's write lock up front, so two processes cannot both apply a file.
        database.exec("BEGIN IMMEDIATE");
        try {
          const result = await body(transaction);
          database.exec("COMMIT");
          return result;
        } catch (error) {
          database.exec("ROLLBACK");
          throw error;
        }
      });
    },
    async close() {
      database.close();
    },
  };
}

/** A fixed key for the PostgreSQL advisory lock that serialises migrators (any constant bigint works). */
const ADVISORY_LOCK_KEY = 7_261_726_174;

/** Opens a migration connection to PostgreSQL. */
export async function openPostgresqlMigrationConnection(connectionString: string): Promise<MigrationConnection> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  const transaction: MigrationTransaction = {
    ensureTable: async () => {
      await client.query(CREATE_TABLE);
    },
    applied: async () =>
      (await client.query<AppliedMigration>(`SELECT "name", "checksum" FROM "_rath_migrations" ORDER BY "name"`)).rows,
    executeScript: async (sql) => {
      // A query without parameters uses the simple protocol, which accepts several statements.
      await client.query(sql);
    },
    record: async ({ name, checksum }) => {
      await client.query(`INSERT INTO "_rath_migrations" ("name", "checksum", "applied_at") VALUES ($1, $2, $3)`, [
        name,
        checksum,
        new Date().toISOString(),
      ]);
    },
  };
  return {
    async withLock(body) {
      await client.query("BEGIN");
      try {
        await client.query("SELECT pg_advisory_xact_lock($1)", [ADVISORY_LOCK_KEY]);
        const result = await body(transaction);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
    },
    async close() {
      await client.end();
    },
  };
}
