/**
 * A SQLite write transaction run in one go on the adapter's better-sqlite3 connection: `BEGIN IMMEDIATE`, a
 * synchronous body, `COMMIT`. Nothing else can run on the connection meanwhile (no await inside), so it needs
 * neither Prisma's interactive transaction (which costs several times the statements of a step commit) nor the
 * write-lock statement of `database.transaction`: `BEGIN IMMEDIATE` takes the write lock before the body reads.
 *
 * When a Prisma transaction is open on the connection (it awaits between its statements), the body runs inside
 * `database.transaction` instead, after it. Busy files are waited out as `database.transaction` does
 * (`retryWhileSqliteBusy`), and the events the body notes are announced after the commit.
 */
import { RathError } from "../../runtime/errors";
import { sqliteCheckpointerOf, sqliteConnectionOf, type Database, type SqliteConnection } from "./database";
import { sqliteStatements, type SyncStatements } from "./raw-sql";
import { collectAppendedEventsNow, databaseKey, noteTransactionEventsOf, publishAppendedEvents } from "./run-event-signal";
import { retryWhileSqliteBusy } from "./sqlite-busy";

/**
 * Longest wait for the checkpoint thread's RESTART before BEGIN IMMEDIATE (its own busy timeout bounds how long it
 * holds the write lock); past it, BEGIN IMMEDIATE waits with SQLite's busy handler as before.
 */
const RESTART_WAIT_MS = 1_000;

const control = new WeakMap<SqliteConnection, { begin: { run(): unknown }; commit: { run(): unknown }; rollback: { run(): unknown } }>();

function controlStatements(connection: SqliteConnection) {
  let statements = control.get(connection);
  if (statements === undefined) {
    statements = { begin: connection.prepare("BEGIN IMMEDIATE"), commit: connection.prepare("COMMIT"), rollback: connection.prepare("ROLLBACK") };
    control.set(connection, statements);
  }
  return statements;
}

/**
 * Runs `body` in one SQLite write transaction (see the file comment). Like `database.transaction`, the body may run
 * more than once (a busy file): it must have no effects outside the transaction.
 */
export async function sqliteWriteTransaction<T>(database: Database, body: (statements: SyncStatements) => T): Promise<T> {
  const connection = sqliteConnectionOf(database);
  if (connection === null) throw new RathError("internal", `no SQLite connection under the database handle of ${database.location.provider}`);
  const statements = sqliteStatements(connection);
  const key = databaseKey(database.location);
  const checkpointer = sqliteCheckpointerOf(database);
  return retryWhileSqliteBusy(
    async () => {
      if (connection.inTransaction) {
        return database.transaction(async (transaction) => {
          const { result, notes } = collectAppendedEventsNow(() => body(statements));
          noteTransactionEventsOf(transaction, notes);
          return result;
        });
      }
      const { begin, commit, rollback } = controlStatements(connection);
      checkpointer?.waitWhileRestarting(RESTART_WAIT_MS);
      begin.run();
      let committed: { result: T; notes: Map<string, number> };
      try {
        committed = collectAppendedEventsNow(() => body(statements));
        commit.run();
      } catch (error) {
        if (connection.inTransaction) rollback.run();
        throw error;
      }
      publishAppendedEvents(key, committed.notes);
      return committed.result;
    },
    { subject: `SQLite database ${database.location.provider === "sqlite" ? database.location.filePath : ""}` },
  );
}
