/**
 * A transaction that only one process at a time runs for a given name, across every process on the database — for
 * read-then-insert work that must not run twice at once (seeding the examples when two studios or workers start
 * together). On PostgreSQL it first takes a transaction-level advisory lock keyed by the name (released at commit or
 * rollback; a second process waits for it, then reads what the first committed). On SQLite `database.transaction`
 * already takes the file's write lock before the body reads anything, which serialises every writer.
 */
import type { Database, TransactionClient } from "./database";

/** Runs `body` in `database.transaction`, exclusively for `name` (see the file comment; the body may run again on a busy SQLite file). */
export function exclusiveTransaction<T>(database: Database, name: string, body: (transaction: TransactionClient) => Promise<T>): Promise<T> {
  return database.transaction(async (transaction) => {
    if (database.provider === "postgresql") await transaction.$executeRawUnsafe("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", name);
    return body(transaction);
  });
}
