/**
 * What the web server's requests share: the database (shared-database.ts) and, in embedded mode, one in-process
 * engine worker, created and started on first use (instrumentation.ts calls this at start-up), that executes the
 * queued runs. Whether the worker runs is decided by server/engine/embedded-worker.ts: yes on SQLite, no on
 * PostgreSQL (server mode: `npm run worker` processes claim the runs) or with RATH_IN_PROCESS_WORKER=0. The
 * worker places runs on the sandbox backend of server/engine/sandbox-choice.ts (bwrap where available).
 */
import type { Database } from "../db/database";
import { randomUUID } from "node:crypto";
import os from "node:os";
import { embeddedWorkerDecision, embeddedWorkerIdentity, leaseMsFrom } from "../engine/embedded-worker";
import { sharedSandboxChoice } from "../engine/sandbox-choice";
import { createWorker, type Worker } from "../engine/worker";
import { observeExecutionOption } from "./otel-live-export";
import { QUEUE_ONLY_EXECUTOR, workerExecutor, type RunExecutor } from "./run-executor";
import { closeSharedDatabase, sharedDatabase } from "./shared-database";

const KEY = Symbol.for("rath.sharedWorker");

type Holder = typeof globalThis & { [KEY]?: Worker };

/** The database and run executor of this server process. */
export interface SharedRuntime {
  database: Database;
  executor: RunExecutor;
}

/** Returns the shared runtime; in embedded mode the worker is created and started once per process. */
export async function sharedRuntime(): Promise<SharedRuntime> {
  const database = await sharedDatabase();
  if (!embeddedWorkerDecision(process.env).start) return { database, executor: QUEUE_ONLY_EXECUTOR };
  const holder = globalThis as Holder;
  if (holder[KEY] === undefined) {
    // Tools of server-side runs go to bwrap where it works (or RATH_SANDBOX_BACKEND's choice).
    const sandbox = await sharedSandboxChoice();
    if (holder[KEY] !== undefined) return { database, executor: workerExecutor(holder[KEY]) };
    // A stable identity per database file and machine: a restarted studio requeues at once the runs its previous
    // process left running (instead of waiting out their lease); RATH_LEASE_MS sets the lease length.
    const databaseFile = database.location.provider === "sqlite" ? database.location.filePath : database.location.connectionString;
    const identity = embeddedWorkerIdentity(databaseFile, { host: os.hostname(), pid: process.pid, suffix: randomUUID().slice(0, 8) });
    holder[KEY] = createWorker({
      db: database,
      placement: { backend: sandbox.backend },
      workerId: identity.workerId,
      leaseMs: leaseMsFrom(process.env),
      reclaimOrphans: { ownerPrefix: identity.ownerPrefix, isGone: identity.isGone },
      // With OTEL_EXPORTER_OTLP_ENDPOINT set, each run's spans go to that endpoint as its steps commit.
      ...observeExecutionOption(database),
    });
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
