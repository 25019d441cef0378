/**
 * The process-wide database handle of the web server: opened (and migrated) once, on first use, from
 * DATABASE_URL (PostgreSQL, server mode) or the embedded SQLite default `.rath/studio.db`. Kept on `globalThis`
 * so Next.js module reloads in development reuse the one connection instead of opening another.
 */
import { openDatabase, type Database } from "../db/database";

/** The database handle the services take (app/ names the type from here, not from server/db). */
export type { Database };

const KEY = Symbol.for("rath.sharedDatabase");

type Holder = typeof globalThis & { [KEY]?: Promise<Database> };

/** The shared database, opened on the first call; a failed open is forgotten so the next call tries again. */
export function sharedDatabase(): Promise<Database> {
  const holder = globalThis as Holder;
  let opening = holder[KEY];
  if (opening === undefined) {
    opening = openDatabase();
    holder[KEY] = opening;
    opening.catch(() => {
      if (holder[KEY] === opening) delete holder[KEY];
    });
  }
  return opening;
}

/** Closes the shared database if it was opened (tests and graceful shutdown). */
export async function closeSharedDatabase(): Promise<void> {
  const holder = globalThis as Holder;
  const opening = holder[KEY];
  delete holder[KEY];
  if (opening !== undefined) await (await opening).close();
}
