/**
 * WAL checkpoints of a SQLite file on a thread of their own, so the app connection's commits (almost) never copy the
 * WAL into the database file themselves: an inline autocheckpoint waits for the disk twice inside the commit that
 * crosses its limit (on this project's disk ~40 % of all COMMIT time in the engine bench).
 *
 * The thread opens its own connection to the file and, every `intervalMs`, runs `PRAGMA wal_checkpoint(PASSIVE)`: it
 * copies the frames committed so far without blocking anyone. A passive checkpoint never lets the WAL start over
 * while commits keep coming (a writer restarts the WAL only when it begins with every frame already copied), so when
 * the WAL holds `restartPages` frames or more the thread runs `wal_checkpoint(RESTART)`: it takes the write lock,
 * copies the frames committed since the passive pass, waits for the disk, and the next commit writes the WAL from its
 * start again. Meanwhile the thread holds up a gate that the hot path's write transactions wait on before they begin
 * (`waitWhileRestarting`, sqlite-write.ts), so they start the moment the RESTART ends; other writers wait for the lock
 * with SQLite's busy timeout.
 *
 * The app connection keeps its own autocheckpoint at a higher limit than `restartPages`: it is the bound of the WAL
 * when the thread falls behind (a busy machine), cannot start or fails (the error goes to `onError`; the thread does
 * not start again). Checkpoints are SQLite's own: what is committed and when it is durable does not change. `close`
 * stops the thread and closes its connection (before the app connection closes, which as the last one checkpoints and
 * removes the WAL as before).
 */
import { Worker } from "node:worker_threads";

/** Options of `startSqliteCheckpointer`. */
export interface SqliteCheckpointerOptions {
  /** The database file (in WAL mode). */
  filePath: string;
  /** WAL frames from which the thread runs a RESTART checkpoint (below the app connection's autocheckpoint limit). */
  restartPages: number;
  /** Time between two passive checkpoints. */
  intervalMs: number;
  /** How long a RESTART checkpoint waits for the write lock (and for readers of the old WAL) before trying again later. */
  busyTimeoutMs: number;
  /** Told why the thread stopped checkpointing (it does not start again; the app connection's autocheckpoint remains). */
  onError: (error: Error) => void;
}

/** What the thread did so far. */
export interface SqliteCheckpointerStats {
  /** Passive checkpoints run. */
  passive: number;
  /** RESTART checkpoints that completed (each lets the next commit write the WAL from its start). */
  restarts: number;
  /** RESTART checkpoints that gave up on the write lock or on a reader (tried again at the next interval). */
  busyRestarts: number;
  /** Checkpoints that failed on a lock held past the busy timeout (tried again at the next interval). */
  busyErrors: number;
  /** Passive checkpoints that found another connection checkpointing (tried again at the next interval). */
  othersCheckpointing: number;
  /** The most WAL frames seen by a checkpoint. */
  largestWalFrames: number;
}

/** A running checkpoint thread of one SQLite file. */
export interface SqliteCheckpointer {
  /** Resolves once the thread checkpoints (true), or could not start (false; `onError` was told why). */
  readonly started: Promise<boolean>;
  /** What the thread did so far (null once it has stopped). */
  stats(): Promise<SqliteCheckpointerStats | null>;
  /** Stops the thread (after its checkpoint in flight) and closes its connection. Safe to call twice. */
  close(): Promise<void>;
  /**
   * Blocks the calling thread while the checkpoint thread runs a RESTART checkpoint (which holds the write lock), at
   * most `maxMs`; returns at once otherwise. Called before a write transaction begins (sqlite-write.ts).
   */
  waitWhileRestarting(maxMs: number): void;
  /** How often and how long (ms) `waitWhileRestarting` waited in this process so far (for profiles). */
  writerWaits(): { count: number; ms: number };
}

// Plain CommonJS run by the worker thread (`eval`), so it needs no build step under tsx, vitest or Next.js.
const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driverPath);
const stats = { passive: 0, restarts: 0, busyRestarts: 0, busyErrors: 0, othersCheckpointing: 0, largestWalFrames: 0 };
let database = null;
let timer = null;
let stopped = false;
function stop() {
  stopped = true;
  if (timer !== null) clearTimeout(timer);
  timer = null;
  if (database !== null) database.close();
  database = null;
}
function fail(error) {
  try { stop(); } catch {}
  parentPort.postMessage({ type: "error", message: error instanceof Error ? error.message : String(error) });
}
function checkpoint() {
  timer = null;
  if (stopped) return;
  try {
    const [passive] = database.pragma("wal_checkpoint(PASSIVE)");
    stats.passive += 1;
    // busy 1, log -1: another connection holds the checkpoint lock (the app connection's own autocheckpoint when
    // this thread fell behind, or another process's checkpoint); try again at the next interval.
    if (passive.log < 0) {
      if (passive.busy !== 1) throw new Error("wal_checkpoint(PASSIVE) returned log -1 without busy: the database is no longer in WAL mode");
      stats.othersCheckpointing += 1;
      timer = setTimeout(checkpoint, workerData.intervalMs);
      return;
    }
    if (passive.log > stats.largestWalFrames) stats.largestWalFrames = passive.log;
    if (passive.log >= workerData.restartPages) {
      // The gate is up while the RESTART may hold the write lock: the app connection waits for it to come down
      // before BEGIN IMMEDIATE instead of polling the lock with SQLite's busy handler (sleeps of 1, 2, 5, 10 ms).
      Atomics.store(workerData.restartGate, 0, 1);
      let restart;
      try {
        [restart] = database.pragma("wal_checkpoint(RESTART)");
      } finally {
        Atomics.store(workerData.restartGate, 0, 0);
        Atomics.notify(workerData.restartGate, 0);
      }
      if (restart.log > stats.largestWalFrames) stats.largestWalFrames = restart.log;
      if (restart.busy === 0) stats.restarts += 1;
      else stats.busyRestarts += 1;
    }
  } catch (error) {
    // A lock held past the busy timeout (another process's exclusive lock, a recovery) is tried again later.
    const code = error && typeof error.code === "string" ? error.code : "";
    if (!code.startsWith("SQLITE_BUSY") && !code.startsWith("SQLITE_LOCKED")) {
      fail(error);
      return;
    }
    stats.busyErrors += 1;
  }
  timer = setTimeout(checkpoint, workerData.intervalMs);
}
parentPort.on("message", (message) => {
  if (message.type === "stats") parentPort.postMessage({ type: "stats", id: message.id, stats: stopped ? null : { ...stats } });
  if (message.type === "stop") {
    try { stop(); } catch (error) { parentPort.postMessage({ type: "error", message: String(error) }); }
    parentPort.postMessage({ type: "stopped" });
  }
});
try {
  database = new Database(workerData.filePath, { fileMustExist: true, timeout: workerData.busyTimeoutMs });
  const [mode] = database.pragma("journal_mode");
  if (mode.journal_mode !== "wal") throw new Error("the database is not in WAL mode (journal_mode " + mode.journal_mode + ")");
  parentPort.postMessage({ type: "started" });
  timer = setTimeout(checkpoint, workerData.intervalMs);
} catch (error) {
  fail(error);
}
`;

type ThreadMessage =
  | { type: "started" }
  | { type: "stopped" }
  | { type: "error"; message: string }
  | { type: "stats"; id: number; stats: SqliteCheckpointerStats | null };

/** The better-sqlite3 entry point as Node resolves it from here (see template-catalog.ts: the bundler must not rewrite it). */
function driverPath(): string {
  return process.getBuiltinModule("node:module").createRequire(import.meta.url).resolve("better-sqlite3");
}

/** Starts the checkpoint thread of `options.filePath` (see the file comment). */
export function startSqliteCheckpointer(options: SqliteCheckpointerOptions): SqliteCheckpointer {
  let failed = false;
  let exited = false;
  let closing: Promise<void> | null = null;
  let nextStatsId = 0;
  const statsWaiters = new Map<number, (stats: SqliteCheckpointerStats | null) => void>();
  let stoppedWaiter: (() => void) | null = null;
  let settleStarted: (started: boolean) => void = () => undefined;
  const started = new Promise<boolean>((resolve) => {
    settleStarted = resolve;
  });

  /** The thread no longer checkpoints: pending questions get null. */
  function stopped(): void {
    settleStarted(false);
    for (const waiter of statsWaiters.values()) waiter(null);
    statsWaiters.clear();
  }

  function failWith(error: Error): void {
    const first = !failed;
    failed = true;
    stopped();
    if (first && closing === null) options.onError(error);
  }

  // One Int32 shared with the thread: 1 while it runs a RESTART checkpoint.
  const restartGate = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const waits = { count: 0, ms: 0 };
  const waitWhileRestarting = (maxMs: number): void => {
    if (Atomics.load(restartGate, 0) !== 1) return;
    const started = performance.now();
    Atomics.wait(restartGate, 0, 1, maxMs);
    waits.count += 1;
    waits.ms += performance.now() - started;
  };
  const writerWaits = () => ({ ...waits });
  let worker: Worker;
  try {
    worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: {
        driverPath: driverPath(),
        filePath: options.filePath,
        restartPages: options.restartPages,
        intervalMs: options.intervalMs,
        busyTimeoutMs: options.busyTimeoutMs,
        restartGate,
      },
    });
  } catch (error) {
    failWith(new Error(`SQLite checkpoint thread for ${options.filePath} did not start: ${error instanceof Error ? error.message : String(error)}`));
    return { started, stats: async () => null, close: async () => undefined, waitWhileRestarting: () => undefined, writerWaits };
  }
  // The thread never keeps the process alive (a CLI that forgets to close its database still exits).
  worker.unref();
  worker.on("message", (message: ThreadMessage) => {
    if (message.type === "started") settleStarted(true);
    else if (message.type === "error") {
      failWith(new Error(`SQLite checkpoint thread for ${options.filePath} stopped: ${message.message}`));
      void worker.terminate();
    }
    else if (message.type === "stats") {
      statsWaiters.get(message.id)?.(message.stats);
      statsWaiters.delete(message.id);
    } else stoppedWaiter?.();
  });
  worker.on("error", (error) => failWith(new Error(`SQLite checkpoint thread for ${options.filePath} failed: ${error.message}`)));
  worker.on("exit", (code) => {
    exited = true;
    // A thread that ended inside a RESTART (terminated) must not leave the app connection waiting for it.
    Atomics.store(restartGate, 0, 0);
    Atomics.notify(restartGate, 0);
    if (closing === null && !failed) failWith(new Error(`SQLite checkpoint thread for ${options.filePath} exited with code ${code}`));
    stopped();
    stoppedWaiter?.();
  });

  return {
    started,
    waitWhileRestarting,
    writerWaits,
    stats: () =>
      new Promise<SqliteCheckpointerStats | null>((resolve) => {
        if (closing !== null || failed || exited) {
          resolve(null);
          return;
        }
        const id = nextStatsId++;
        statsWaiters.set(id, resolve);
        worker.postMessage({ type: "stats", id });
      }),
    close: () => {
      closing ??= (async () => {
        stopped();
        if (exited) return;
        const threadStopped = new Promise<void>((resolve) => {
          stoppedWaiter = resolve;
        });
        worker.postMessage({ type: "stop" });
        await threadStopped;
        await worker.terminate();
      })();
      return closing;
    },
  };
}
