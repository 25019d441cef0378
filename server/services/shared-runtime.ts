/**
 * What the web server's requests share: the database (shared-database.ts) and one in-process engine worker,
 * created and started on first use, that executes queued runs (embedded mode needs no other process). Set
 * RATH_IN_PROCESS_WORKER=0 when separate worker processes execute the runs (server mode at scale).
 */
import type { Database } from "../db/database";
import { createWorker, type Worker } from "../engine/worker";
import { QUEUE_ONLY_EXECUTOR, workerExecutor, type RunExecutor } from "./run-executor";
import { closeSharedDatabase, sharedDatabase } from "./shared-database";

const KEY = Symbol.for("rath.sharedWorker");

type Holder = typeof globalThis & { [KEY]?: Worker };

/** The database and run executor of this server process. */
export interface SharedRuntime {
  database: Database;
  executor: RunExecutor;
}

/** True unless RATH_IN_PROCESS_WORKER is `0`, `false` or `off`. */
export function inProcessWorkerEnabled(environment: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const value = environment.RATH_IN_PROCESS_WORKER?.trim().toLowerCase();
  return !(value === "0" || value === "false" || value === "off");
}

/** Returns the shared runtime; the worker is created and started once per process. */
export async function sharedRuntime(): Promise<SharedRuntime> {
  const database = await sharedDatabase();
  if (!inProcessWorkerEnabled()) return { database, executor: QUEUE_ONLY_EXECUTOR };
  const holder = globalThis as Holder;
  if (holder[KEY] === undefined) {
    holder[KEY] = createWorker({ db: database });
    // Started at once, so runs left queued by an earlier server process are picked up without a new request.
    holder[KEY].start();
  }
  return { database, executor: workerExecutor(holder[KEY]) };
}

/** Stops the in-process worker (runs in progress go back to the queue) and closes the shared database. */
export async function stopSharedRuntime(): Promise<void> {
  const holder = globalThis as Holder;
  const worker = holder[KEY];
  delete holder[KEY];
  await worker?.stop();
  await closeSharedDatabase();
}
