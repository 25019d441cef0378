/**
 * A worker: claim loops that take queued runs (priority, then FIFO), execute them with a heartbeat renewing the
 * lease, and periodically put runs whose lease expired back in the queue and time out queued or waiting runs past
 * their deadline (run timeout or approval expiry). Any number of workers may share one
 * database; fencing tokens make sure only the current lease holder's commits are stored.
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Provider } from "../../runtime/providers/types";
import type { Database } from "../db/database";
import { claimNext, expireDeadlines, expireLeases, releaseOrphanedLeases } from "../db/run-lease";
import { createProviderResolver, type ProviderResolver } from "./provider-resolver";
import { executeClaimedRun, type ExecutionOutcome, type ExecutorOptions } from "./run-executor";
import { sleep } from "./step-attempts";

/** Options of `createWorker`. */
export interface WorkerOptions extends Partial<Omit<ExecutorOptions, "resolveProvider" | "shutdown">> {
  db: Database;
  /** Default: `<hostname>:<pid>:<random>`. */
  workerId?: string;
  /** Lease length (ms), default 30 000. */
  leaseMs?: number;
  /** Heartbeat period (ms), default a third of the lease. */
  heartbeatMs?: number;
  /** Sleep between empty polls (ms), default 500. */
  pollMs?: number;
  /** Period of the sweep that requeues expired leases and times out queued / waiting runs past a deadline (ms), default the lease length. */
  sweepMs?: number;
  /** Concurrent claim loops in this worker, default 1. */
  concurrency?: number;
  /** Fixed providers by name, or a resolver (default: database settings, environment, demo provider). */
  providers?: Readonly<Record<string, Provider>> | ProviderResolver;
  /** Called with every execution's outcome. */
  onOutcome?: (runId: string, outcome: ExecutionOutcome) => void;
  /**
   * Watches each execution (the OTLP trace sender, server/services/otel-live-export.ts): called when a run is
   * claimed, with the run's event seq at the claim; `end` is called when that execution is over (not awaited by the
   * loop; its errors go to `onError`).
   */
  observeExecution?: (runId: string, claimed: { eventSeq: number }) => { end: () => Promise<void> };
  /**
   * Runs this worker's earlier incarnation held (owner id starting with `ownerPrefix`, holder gone): requeued
   * when the worker starts, before its first claim, instead of after their lease expires (embedded mode).
   */
  reclaimOrphans?: { ownerPrefix: string; isGone: (leaseOwner: string) => boolean };
  /** Called with errors the loop survived (default: console.error). */
  onError?: (error: unknown) => void;
}

/** A running or stopped worker. */
export interface Worker {
  readonly id: string;
  /** Starts the claim loops (no-op when started). */
  start(): void;
  /** Wakes idle loops now (e.g. right after a run was queued). */
  notify(): void;
  /** Stops claiming; runs in progress go back to the queue before their next step. Resolves when every loop ended. */
  stop(): Promise<void>;
}

/** The default worker id: host, process and a random suffix. */
export function defaultWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** Creates a worker; call `start()` to begin. */
export function createWorker(options: WorkerOptions): Worker {
  const id = options.workerId ?? defaultWorkerId();
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 500;
  const sweepMs = options.sweepMs ?? leaseMs;
  const concurrency = options.concurrency ?? 1;
  const resolveProvider =
    typeof options.providers === "function"
      ? options.providers
      : createProviderResolver({ database: options.db, ...(options.providers ? { providers: options.providers } : {}) });
  const onError = options.onError ?? ((error: unknown) => console.error(`[rath worker ${id}]`, error));
  let shutdown = new AbortController();
  let wake = new AbortController();
  let loops: Promise<void>[] = [];
  let lastSweep = 0;

  const executorOptions: ExecutorOptions = {
    ...options,
    resolveProvider,
    leaseMs,
    ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
  };

  async function sweep(): Promise<void> {
    if (Date.now() - lastSweep < sweepMs) return;
    lastSweep = Date.now();
    await expireLeases(options.db);
    await expireDeadlines(options.db);
  }

  let orphansReleased: Promise<void> | null = null;
  function releaseOrphans(): Promise<void> {
    const reclaim = options.reclaimOrphans;
    orphansReleased ??= reclaim
      ? releaseOrphanedLeases(options.db, reclaim.ownerPrefix, reclaim.isGone).then(
          (runs) => {
            if (runs.length > 0) console.info(`[rath worker ${id}] requeued ${runs.length} run(s) left running by this studio's previous process: ${runs.map((run) => run.id).join(", ")}`);
          },
          (error: unknown) => onError(error),
        )
      : Promise.resolve();
    return orphansReleased;
  }

  async function loop(loopId: string): Promise<void> {
    await releaseOrphans();
    while (!shutdown.signal.aborted) {
      try {
        await sweep();
        const claim = await claimNext(options.db, loopId, leaseMs);
        if (claim !== null) {
          const observed = options.observeExecution?.(claim.run.id, { eventSeq: claim.run.lastEventSeq });
          const outcome = await executeClaimedRun(options.db, claim, { ...executorOptions, shutdown: shutdown.signal });
          options.onOutcome?.(claim.run.id, outcome);
          if (observed !== undefined) void observed.end().catch(onError);
          continue;
        }
      } catch (error) {
        onError(error);
      }
      await sleep(pollMs, AbortSignal.any([shutdown.signal, wake.signal]));
      if (wake.signal.aborted) wake = new AbortController();
    }
  }

  return {
    id,
    start() {
      if (loops.length > 0) return;
      shutdown = new AbortController();
      loops = Array.from({ length: concurrency }, (_, index) => loop(concurrency === 1 ? id : `${id}#${index}`));
    },
    notify() {
      wake.abort();
    },
    async stop() {
      shutdown.abort();
      await Promise.all(loops);
      loops = [];
    },
  };
}
