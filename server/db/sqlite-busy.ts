/**
 * SQLite lock contention between processes (a worker, the studio and `rath run` on one file): recognising
 * SQLITE_BUSY in the shapes it reaches us, and retrying a whole transaction while the file stays locked, with
 * jittered backoff inside a bounded total wait. Used by `database.transaction` (database.ts).
 */
import { isRathError, RathError } from "../../runtime/errors";

/** How long `retryWhileSqliteBusy` keeps retrying by default before it gives up (milliseconds). */
export const SQLITE_BUSY_RETRY_BUDGET_MS = 10_000;

const FIRST_DELAY_MS = 2;
const LONGEST_DELAY_MS = 100;

/** The SQLite result codes an error carries: its own `code`, the driver adapter's `originalCode`, its causes'. */
function sqliteCodes(error: unknown, depth = 0): string[] {
  if (typeof error !== "object" || error === null || depth > 4) return [];
  const { code, meta, cause } = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } }; cause?: unknown };
  const adapterCode = meta?.driverAdapterError?.cause?.originalCode;
  return [
    ...(typeof code === "string" ? [code] : []),
    ...(typeof adapterCode === "string" ? [adapterCode] : []),
    ...sqliteCodes(cause, depth + 1),
  ];
}

/**
 * True when `error` says another connection holds the SQLite lock: better-sqlite3's `SQLITE_BUSY*` errors, and
 * Prisma's wrappings of them (`P1008` "Operation has timed out" naming `SQLITE_BUSY`, or the code
 * `SQLITE_BUSY_SNAPSHOT` itself), also as the `cause` of another error that is not a RathError.
 */
export function isSqliteBusyError(error: unknown): boolean {
  // A RathError is a decision (e.g. the retry budget was spent), never a lock to wait out, whatever its cause.
  if (isRathError(error)) return false;
  return sqliteCodes(error).some((code) => code.startsWith("SQLITE_BUSY"));
}

/** Options of `retryWhileSqliteBusy`. */
export interface SqliteBusyRetryOptions {
  /** Total time to keep retrying, from the first attempt (default `SQLITE_BUSY_RETRY_BUDGET_MS`). */
  budgetMs?: number;
  /** What is being retried, for the error message (e.g. the database file). */
  subject?: string;
  /** Random number in [0, 1) for the jitter (tests). */
  random?: () => number;
  /** Waits `milliseconds` (tests). */
  sleep?: (milliseconds: number) => Promise<void>;
}

const defaultSleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/**
 * Runs `attempt` and runs it again while it fails with a busy error, waiting a jittered, doubling delay (2 ms up
 * to 100 ms) between attempts. Once the budget is spent, throws an `io_error` RathError whose cause is the last
 * busy error. Other errors are thrown at once. `attempt` must be safe to repeat (a whole transaction is).
 */
export async function retryWhileSqliteBusy<T>(attempt: () => Promise<T>, options: SqliteBusyRetryOptions = {}): Promise<T> {
  const budgetMs = options.budgetMs ?? SQLITE_BUSY_RETRY_BUDGET_MS;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? defaultSleep;
  const started = Date.now();
  for (let attempts = 1; ; attempts += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!isSqliteBusyError(error)) throw error;
      const elapsed = Date.now() - started;
      const ceiling = Math.min(LONGEST_DELAY_MS, FIRST_DELAY_MS * 2 ** (attempts - 1));
      const delay = Math.round(ceiling / 2 + random() * (ceiling / 2));
      if (elapsed + delay > budgetMs) {
        throw new RathError(
          "io_error",
          `${options.subject ?? "the SQLite database"} stayed locked by another connection: expected the lock within ${budgetMs} ms, found it busy after ${attempts} attempts over ${elapsed} ms`,
          { cause: error, details: { attempts, elapsedMs: elapsed } },
        );
      }
      await sleep(delay);
    }
  }
}
