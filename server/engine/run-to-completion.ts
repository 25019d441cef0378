/**
 * Runs the engine in this process until one run settles (terminal, waiting or needs_review): the headless CLI's
 * and the tests' way to execute a run without a background worker. Only that run is claimed (`claimRun`); other
 * queued runs are left to the workers.
 */
import { RathError } from "../../runtime/errors";
import type { Provider } from "../../runtime/providers/types";
import type { Database } from "../db/database";
import { claimRun, expireLeases } from "../db/run-lease";
import type { RunRecord } from "../db/run-record";
import { getRun } from "../db/run-store";
import { createProviderResolver, type ProviderResolver } from "./provider-resolver";
import { executeClaimedRun, type ExecutorOptions } from "./run-executor";
import { isTerminalRunStatus } from "../db/run-status";
import { defaultWorkerId } from "./worker";

/** Options of `runToCompletion`. */
export interface RunToCompletionOptions extends Partial<Omit<ExecutorOptions, "resolveProvider">> {
  /** Fixed providers by name, or a resolver (default: database settings, environment, demo provider). */
  providers?: Readonly<Record<string, Provider>> | ProviderResolver;
  workerId?: string;
  /** Sleep while another worker holds the run (ms), default 100. */
  pollMs?: number;
  /** Give up after this long (ms), default 10 minutes. */
  timeoutMs?: number;
}

/** True when the run needs no worker now: terminal, waiting for a person, or needing review. */
export function isSettledRunStatus(status: RunRecord["status"]): boolean {
  return isTerminalRunStatus(status) || status === "waiting" || status === "needs_review";
}

/** Executes `runId` in this process until it is terminal, waiting or needs review; returns the run then. */
export async function runToCompletion(database: Database, runId: string, options: RunToCompletionOptions = {}): Promise<RunRecord> {
  const workerId = options.workerId ?? defaultWorkerId();
  const resolveProvider =
    typeof options.providers === "function"
      ? options.providers
      : createProviderResolver({ database, ...(options.providers ? { providers: options.providers } : {}) });
  const executorOptions: ExecutorOptions = { ...options, leaseMs: options.leaseMs ?? 30_000, resolveProvider };
  const deadline = Date.now() + (options.timeoutMs ?? 600_000);
  for (;;) {
    const run = await getRun(database, runId);
    if (run === null) throw new RathError("not_found", `run ${runId} not found`);
    if (isSettledRunStatus(run.status)) return run;
    if (Date.now() > deadline) throw new RathError("aborted", `run ${runId} did not settle in time; it is ${run.status}`);
    if (run.status === "queued") {
      const claim = await claimRun(database, runId, workerId, executorOptions.leaseMs);
      if (claim !== null) {
        await executeClaimedRun(database, claim, executorOptions);
        continue;
      }
    } else {
      await expireLeases(database);
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
  }
}
