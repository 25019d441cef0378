/**
 * The port between the API and whoever executes runs. The API only queues runs (start, resume, a decision) and
 * then wakes the executor; in embedded mode the executor is the in-process worker of server/engine, in server
 * mode separate worker processes claim runs from the database and `wake` does nothing.
 */

/** Something that executes queued runs. */
export interface RunExecutor {
  /** A run was queued (started, resumed or decided): an in-process worker may claim it now. Never throws. */
  wake(runId: string): void;
}

/** An executor that does nothing: runs wait in the queue for worker processes (server mode, and tests). */
export const QUEUE_ONLY_EXECUTOR: RunExecutor = {
  wake() {},
};

/** The part of an engine worker (server/engine/worker.ts) the executor uses. */
export interface WakeableWorker {
  start(): void;
  notify(): void;
}

/** An executor backed by an in-process worker: started on the first wake, then woken for every queued run. */
export function workerExecutor(worker: WakeableWorker): RunExecutor {
  return {
    wake() {
      worker.start();
      worker.notify();
    },
  };
}
