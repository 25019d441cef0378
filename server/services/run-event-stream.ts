/**
 * Follows a run's event log live: yields stored events in sequence order from `afterSeq`, and waits for new ones
 * to be pushed — by the in-process bus after a commit (embedded SQLite) or by PostgreSQL `LISTEN/NOTIFY` (server
 * mode, any worker process); see server/db/run-event-listener.ts. A wake-up only says "read again": the events
 * themselves always come from the store, after the last seq delivered, so resuming with the last seq a client saw
 * never repeats or skips an event (sequence numbers are contiguous per run). A slow fallback read covers writers
 * nobody hears (another process on the same SQLite file) and a PostgreSQL listener that is reconnecting.
 * The stream ends once the run is terminal and every event has been delivered.
 */
import { RathError } from "../../runtime/errors";
import type { Database } from "../db/database";
import { subscribeRunEvents } from "../db/run-event-listener";
import { eventsPage, runEventPosition } from "../db/run-events";
import { isTerminalRunStatus, RunStatus } from "../db/run-status";
import { requireRun } from "./run-service";
import { runEventView, type RunEventView } from "./views";

/** Options of `followRunEvents`. */
export interface FollowOptions {
  /** Start after this sequence number (0: from the first event). */
  afterSeq?: number;
  /** Stops the stream (the client went away). */
  signal?: AbortSignal;
  /**
   * Longest wait without a wake-up before the store is read anyway (ms). Default: 1000 on SQLite (other processes
   * writing the same file are not heard), 5000 on PostgreSQL while its listener is connected.
   */
  fallbackMs?: number;
  /** The fallback read interval while the PostgreSQL listener is down (ms, default 250). */
  pollMs?: number;
  /** Events per store read (default 200). */
  pageSize?: number;
}

/** Yields a run's events from `afterSeq` on, until the run is terminal and drained or the signal aborts. */
export async function* followRunEvents(database: Database, runId: string, options: FollowOptions = {}): AsyncGenerator<RunEventView, void, undefined> {
  await requireRun(database, runId);
  let after = options.afterSeq ?? 0;
  const pageSize = options.pageSize ?? 200;
  const fallbackMs = options.fallbackMs ?? (database.provider === "sqlite" ? 1000 : 5000);
  const pollMs = options.pollMs ?? 250;
  // Subscribed before the first read: a commit between a read and the wait still wakes the wait.
  let woken = false;
  let wake: (() => void) | null = null;
  const subscription = subscribeRunEvents(database.location, runId, () => {
    woken = true;
    wake?.();
  });
  try {
    while (options.signal?.aborted !== true) {
      woken = false;
      const page = await eventsPage(database, runId, { afterSeq: after, limit: pageSize });
      for (const event of page) {
        after = event.seq;
        yield runEventView(event);
      }
      if (page.length === pageSize) continue;
      // Read the status after the page: a terminal run appends nothing more, so an empty re-read means drained.
      const run = await runEventPosition(database, runId);
      if (run === null) throw new RathError("not_found", `run ${runId} not found`);
      const status = RunStatus.safeParse(run.status);
      if (status.success && isTerminalRunStatus(status.data) && run.lastEventSeq <= after) return;
      if (run.lastEventSeq > after || woken) continue;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          options.signal?.removeEventListener("abort", done);
          wake = null;
          resolve();
        };
        const timer = setTimeout(done, subscription.live() ? fallbackMs : Math.min(pollMs, fallbackMs));
        options.signal?.addEventListener("abort", done, { once: true });
        wake = done;
      });
    }
  } finally {
    subscription.unsubscribe();
  }
}
