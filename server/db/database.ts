/**
 * Opens the database: resolves the location (database-url.ts), applies the checked-in SQL migrations
 * (migrator.ts), and returns a `Database` whose Prisma client goes through a driver adapter
 * (@prisma/adapter-better-sqlite3 or @prisma/adapter-pg). Both generated clients have the same model API; the
 * handle is typed with the SQLite one, and repositories branch on `provider` only for raw SQL.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Pool as PostgresPool } from "pg";
import type { PrismaClient as GeneratedClient, Prisma } from "./generated/sqlite/client";
import { resolveDatabaseLocation, type DatabaseLocation, type DatabaseProvider } from "./database-url";
import { applyMigrations, type MigrationReport } from "./migrator";
import { RathError } from "../../runtime/errors";
import { mapPrismaError } from "./prisma-errors";
import { retryWhileSqliteBusy } from "./sqlite-busy";
import { startSqliteCheckpointer, type SqliteCheckpointer } from "./sqlite-checkpointer";
import { collectTransactionEvents, databaseKey, publishAppendedEvents, RUN_EVENTS_CHANNEL, type AppendedEvents } from "./run-event-signal";

/** The Prisma client type every repository uses (the PostgreSQL client has the same model API). */
export type DatabaseClient = GeneratedClient;
/** The client handed to a transaction body. */
export type TransactionClient = Prisma.TransactionClient;

/** An open database: the Prisma client, its provider, and what the migrator did at start-up. */
export interface Database {
  readonly provider: DatabaseProvider;
  readonly location: DatabaseLocation;
  readonly client: DatabaseClient;
  readonly migrations: MigrationReport;
  /**
   * Runs `body` in one interactive transaction; Prisma errors are mapped to RathError (e.g. unique -> conflict).
   * On SQLite the transaction takes the file's write lock before `body` runs, and when another process holds it
   * for long the whole transaction is run again (jittered backoff, 10 s in all, then `io_error`), so callers never
   * see SQLITE_BUSY. Hence the rule for `body`: no effects outside the transaction (no pushes to outer arrays, no
   * events, no I/O); compute everything it returns from the transaction, and act on it after `transaction` returns.
   */
  transaction<T>(body: (transaction: TransactionClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Options of `openDatabase`. */
export interface OpenDatabaseOptions {
  /** `postgres://...`, `postgresql://...` or `file:<path>`; defaults to DATABASE_URL, RATH_DB_PATH, `.rath/studio.db`. */
  url?: string;
  /** A migrations folder other than prisma/migrations/<provider> (tests). */
  migrationsDirectory?: string;
  /** PostgreSQL pool size of this handle (default 10). SQLite handles of one file share one connection. */
  poolSize?: number;
  /**
   * SQLite durability (`PRAGMA synchronous`, WAL journal): `normal` (default) does not wait for the disk at each
   * commit, so a committed step survives a crash of the process but may be lost on power loss or an OS crash
   * (the database stays consistent either way); `full` waits for the disk at every commit. Default: the
   * RATH_SQLITE_SYNCHRONOUS environment variable, else `normal`. The first handle opened on a file decides.
   */
  sqliteSynchronous?: SqliteSynchronous;
  /**
   * Who copies SQLite's WAL into the database file: `thread` (default) a checkpoint thread of the file
   * (sqlite-checkpointer.ts), with the commits' own autocheckpoint as the bound; `inline` only the commits that cross
   * SQLITE_WAL_AUTOCHECKPOINT_PAGES (as before the thread; for comparisons). The first handle opened on a file decides.
   */
  sqliteCheckpoints?: "thread" | "inline";
}

/** SQLite's durability setting for the app connection (see `OpenDatabaseOptions.sqliteSynchronous`). */
export type SqliteSynchronous = "normal" | "full";

/** The SQLite synchronous setting to use: the option, else RATH_SQLITE_SYNCHRONOUS, else `normal`. */
export function resolveSqliteSynchronous(option: SqliteSynchronous | undefined, environment: Readonly<Record<string, string | undefined>> = process.env): SqliteSynchronous {
  const value = option ?? environment.RATH_SQLITE_SYNCHRONOUS?.trim().toLowerCase() ?? "normal";
  if (value !== "normal" && value !== "full") {
    throw new RathError("invalid_config", `RATH_SQLITE_SYNCHRONOUS must be "normal" or "full"; found ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * WAL pages after which a commit of the app connection checkpoints the WAL into the database file itself (SQLite's
 * default is 1,000). With the checkpoint thread running (sqlite-checkpointer.ts) the WAL starts over at half this
 * size, so this limit is reached only when that thread falls behind or stops.
 */
export const SQLITE_WAL_AUTOCHECKPOINT_PAGES = 16_000;

/**
 * WAL pages from which the checkpoint thread restarts the WAL (a RESTART checkpoint): 16 MB at 2,048-byte pages. Under
 * a steady stream of commits every restart stops the writer for its two waits for the disk (~3-6 ms here), so the
 * larger the WAL the rarer that stop: at 2,000 pages (until 2026-12-05) it was ~6 % of an engine step's time on
 * SQLite, at 8,000 about a quarter of that. When commits pause, a passive checkpoint copies the whole WAL and the next
 * commit starts it over without any restart.
 */
const SQLITE_WAL_RESTART_PAGES = SQLITE_WAL_AUTOCHECKPOINT_PAGES / 2;

/** How often the checkpoint thread copies the WAL's new frames into the database file (a passive checkpoint). */
const SQLITE_CHECKPOINT_INTERVAL_MS = 20;

// SQLite serialises transactions on its one connection, so a waiting transaction may wait for several others.
const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 30_000 } as const;

/**
 * How long one SQLite statement waits for a lock held by another process (better-sqlite3's busy timeout). The
 * wait blocks the event loop, so it is short; `database.transaction` retries beyond it asynchronously.
 */
const SQLITE_BUSY_TIMEOUT_MS = 1_000;

/**
 * A write that changes nothing, run first in every SQLite transaction: it takes the write lock (or waits for it)
 * before the transaction reads anything. The adapter opens transactions with a deferred `BEGIN`; a transaction
 * that read first and writes later cannot wait for the lock in WAL mode (SQLITE_BUSY_SNAPSHOT at once, since its
 * snapshot may be stale). `BEGIN IMMEDIATE` is not an option: the adapter issues `BEGIN` itself, and a failing
 * `BEGIN` would leave its transaction mutex locked.
 */
const SQLITE_WRITE_LOCK_SQL = `UPDATE "_rath_migrations" SET "name" = "name" WHERE 0`;

/**
 * SQLite clients are shared per file within a process: better-sqlite3 waits for a busy lock synchronously, so
 * a second connection to the same file in the same thread would block the first one's COMMIT (a deadlock until
 * the busy timeout). Each handle holds a reference; the last `close` disconnects.
 */
const sharedSqliteClients = new Map<string, { client: Promise<DatabaseClient>; references: number }>();

/** The checkpoint thread of each shared SQLite client (closed before the client disconnects). */
const sqliteCheckpointers = new WeakMap<DatabaseClient, SqliteCheckpointer>();

async function acquireClient(location: DatabaseLocation, options: OpenDatabaseOptions): Promise<{ client: DatabaseClient; release: () => Promise<void> }> {
  if (location.provider === "postgresql") {
    const client = await createClient(location, options);
    return { client, release: () => client.$disconnect() };
  }
  const key = location.filePath;
  let entry = sharedSqliteClients.get(key);
  if (entry === undefined) {
    entry = { client: createClient(location, options), references: 0 };
    sharedSqliteClients.set(key, entry);
  }
  entry.references += 1;
  const shared = entry;
  let client: DatabaseClient;
  try {
    client = await shared.client;
  } catch (error) {
    shared.references -= 1;
    if (sharedSqliteClients.get(key) === shared) sharedSqliteClients.delete(key);
    throw error;
  }
  let released = false;
  return {
    client,
    release: async () => {
      if (released) return;
      released = true;
      shared.references -= 1;
      if (shared.references === 0) {
        sharedSqliteClients.delete(key);
        await sqliteCheckpointers.get(client)?.close();
        await client.$disconnect();
      }
    },
  };
}

/** The parts of a better-sqlite3 connection the hot paths use. */
export interface SqliteConnection {
  prepare(sql: string): { all(...values: unknown[]): unknown[]; run(...values: unknown[]): { changes: number } };
  /** Whether a transaction is open on the connection (better-sqlite3's own flag). */
  readonly inTransaction: boolean;
}

function isSqliteConnection(value: unknown): value is SqliteConnection {
  return typeof value === "object" && value !== null && typeof (value as { prepare?: unknown }).prepare === "function" && typeof (value as { exec?: unknown }).exec === "function" && typeof (value as { inTransaction?: unknown }).inTransaction === "boolean";
}

const sqliteConnections = new WeakMap<DatabaseClient, SqliteConnection>();

const writeLockStatements = new WeakMap<SqliteConnection, ReturnType<SqliteConnection["prepare"]>>();

/** Takes the SQLite write lock in the open transaction (see SQLITE_WRITE_LOCK_SQL); waits up to the busy timeout. */
async function takeSqliteWriteLock(client: DatabaseClient, transaction: TransactionClient): Promise<void> {
  const connection = sqliteConnections.get(client);
  if (connection === undefined) {
    await transaction.$executeRawUnsafe(SQLITE_WRITE_LOCK_SQL);
    return;
  }
  let statement = writeLockStatements.get(connection);
  if (statement === undefined) {
    statement = connection.prepare(SQLITE_WRITE_LOCK_SQL);
    writeLockStatements.set(connection, statement);
  }
  statement.run();
}

const postgresPools = new WeakMap<DatabaseClient, PostgresPool>();

/**
 * The `pg` pool under a PostgreSQL handle's Prisma client (the adapter runs on it), or null (SQLite). For hot paths
 * that need one statement in one round trip without Prisma's query compiler (`run-commit-postgres.ts`). A statement
 * run on it is its own transaction: never use it for a statement that must join an open `database.transaction`.
 */
export function postgresPoolOf(database: Pick<Database, "client">): PostgresPool | null {
  return postgresPools.get(database.client) ?? null;
}

/** The checkpoint thread of a SQLite handle's file (see sqlite-checkpointer.ts), or null (PostgreSQL, or none started). */
export function sqliteCheckpointerOf(database: Pick<Database, "client">): SqliteCheckpointer | null {
  return sqliteCheckpointers.get(database.client) ?? null;
}

/**
 * The better-sqlite3 connection under a SQLite handle's Prisma client, or null (PostgreSQL, or an adapter that
 * does not expose it). Only for statements inside `database.transaction`, which holds the connection: there they
 * are part of the open transaction.
 */
export function sqliteConnectionOf(database: Pick<Database, "client">): SqliteConnection | null {
  return sqliteConnections.get(database.client) ?? null;
}

/** Opens (and migrates) the configured database. */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const location = resolveDatabaseLocation(options.url);
  if (location.provider === "sqlite") resolveSqliteSynchronous(options.sqliteSynchronous);
  if (location.provider === "sqlite") mkdirSync(path.dirname(location.filePath), { recursive: true });
  const migrations = await applyMigrations(location, options.migrationsDirectory);
  const { client, release } = await acquireClient(location, options);
  const signalKey = databaseKey(location);
  return {
    provider: location.provider,
    location,
    client,
    migrations,
    async transaction<T>(body: (transaction: TransactionClient) => Promise<T>): Promise<T> {
      if (location.provider === "postgresql") {
        try {
          // Events appended by the body are announced with pg_notify, which PostgreSQL delivers on commit only.
          return await client.$transaction(async (transaction) => {
            const notes = collectTransactionEvents(transaction);
            const value = await body(transaction);
            await notifyPostgres(transaction, notes);
            return value;
          }, TRANSACTION_OPTIONS);
        } catch (error) {
          throw mapPrismaError(error);
        }
      }
      // The write lock comes first, so the body never upgrades a read snapshot to a write (which cannot wait);
      // a lock held longer than the busy timeout fails the lock statement and the whole transaction runs again.
      return retryWhileSqliteBusy(
        async () => {
          let notes: AppendedEvents = new Map();
          let result: T;
          try {
            result = await client.$transaction(async (transaction) => {
              notes = collectTransactionEvents(transaction);
              await takeSqliteWriteLock(client, transaction);
              return body(transaction);
            }, TRANSACTION_OPTIONS);
          } catch (error) {
            throw mapPrismaError(error);
          }
          // Only the committed attempt's events are announced, after the commit.
          publishAppendedEvents(signalKey, notes);
          return result;
        },
        { subject: `SQLite database ${location.filePath}` },
      );
    },
    close: release,
  };
}

/** Announces, inside the transaction, the runs whose events it appended (delivered to listeners on commit). */
async function notifyPostgres(transaction: TransactionClient, notes: AppendedEvents): Promise<void> {
  for (const [runId, lastSeq] of notes) {
    await transaction.$executeRawUnsafe(`SELECT pg_notify($1, $2)`, RUN_EVENTS_CHANNEL, `${runId}:${lastSeq}`);
  }
}

async function createClient(location: DatabaseLocation, options: OpenDatabaseOptions): Promise<DatabaseClient> {
  if (location.provider === "sqlite") {
    const [{ PrismaBetterSQLite3 }, { PrismaClient }] = await Promise.all([
      import("@prisma/adapter-better-sqlite3"),
      import("./generated/sqlite/client"),
    ]);
    const factory = new PrismaBetterSQLite3({ url: `file:${location.filePath}`, timeout: SQLITE_BUSY_TIMEOUT_MS });
    // The adapter's better-sqlite3 connection is remembered so hot paths can run statements on it synchronously
    // inside a transaction (raw-sql.ts); Prisma connects lazily, on the first query below.
    let connection: SqliteConnection | null = null;
    const connect = factory.connect.bind(factory);
    factory.connect = async () => {
      const adapter = await connect();
      const candidate = (adapter as unknown as { client?: unknown }).client;
      if (isSqliteConnection(candidate)) connection = candidate;
      return adapter;
    };
    const client = new PrismaClient({ adapter: factory });
    // Foreign keys are off by default in SQLite and the setting is per connection; the adapter keeps one connection.
    await client.$executeRawUnsafe("PRAGMA foreign_keys = ON");
    // WAL is set (and persisted in the file) by the migrator; synchronous is per connection. See sqliteSynchronous.
    await client.$executeRawUnsafe(`PRAGMA synchronous = ${resolveSqliteSynchronous(options.sqliteSynchronous) === "full" ? "FULL" : "NORMAL"}`);
    // A WAL checkpoint copies the WAL's pages into the database file and waits for the disk twice, inside the commit
    // that crosses the limit. At SQLite's default of 1,000 pages the engine (about 20 WAL pages per step) did one
    // every ~50 steps, each 15-38 ms on this disk under load: a sixth of a step's time. At 16,000 pages (32 MB at the
    // 2,048-byte pages of new files: SQLITE_PAGE_SIZE, migration-connection.ts) pages written again and again (the run
    // row, index pages) are copied once per checkpoint, and it waits for the disk a sixteenth as often. Durability is the WAL's either way. With the checkpoint thread below running, commits
    // reach this limit only if that thread falls behind or stops.
    await client.$queryRawUnsafe(`PRAGMA wal_autocheckpoint = ${SQLITE_WAL_AUTOCHECKPOINT_PAGES}`);
    if (connection !== null) sqliteConnections.set(client, connection);
    if (options.sqliteCheckpoints !== "inline") {
      // Checkpoints on a thread of their own, so no commit of this connection waits for one (sqlite-checkpointer.ts).
      sqliteCheckpointers.set(
        client,
        startSqliteCheckpointer({
          filePath: location.filePath,
          restartPages: SQLITE_WAL_RESTART_PAGES,
          intervalMs: SQLITE_CHECKPOINT_INTERVAL_MS,
          busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS,
          onError: (error) => console.error(`[rath sqlite] ${error.message}; commits checkpoint the WAL themselves from here on (every ${SQLITE_WAL_AUTOCHECKPOINT_PAGES} pages)`),
        }),
      );
    }
    return client;
  }
  const [{ PrismaPg }, { PrismaClient }, { default: pg }] = await Promise.all([
    import("@prisma/adapter-pg"),
    import("./generated/postgresql/client"),
    import("pg"),
  ]);
  // One pool for Prisma and the hot paths (postgresPoolOf); the adapter ends it when the client disconnects.
  const pool = new pg.Pool({ connectionString: location.connectionString, max: options.poolSize ?? 10 });
  // An idle connection that fails (a server restart) leaves the pool, which connects again on the next query.
  pool.on("error", () => undefined);
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  // Same model API, generated for another provider: the cast is the one place the two clients meet.
  const shared = client as unknown as DatabaseClient;
  postgresPools.set(shared, pool);
  return shared;
}
