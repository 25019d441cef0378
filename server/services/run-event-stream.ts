/**
 * Follows a run's event log live: yields stored events in sequence order from `afterSeq`, polls the store for
 * new ones (any process may append them: the in-process worker or a worker on another machine), and ends once
 * the run is terminal and every event has been delivered. Resuming with the last seq a client saw never repeats
 * or skips an event, because sequence numbers are contiguous per run.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Database } from "../db/database";
import { eventsPage } from "../db/run-events";
import { isTerminalRunStatus } from "../engine/run-status";
import { requireRun } from "./run-service";
import { runEventView, type RunEventView } from "./views";

/** Options of `followRunEvents`. */
export interface FollowOptions {
  /** Start after this sequence number (0: from the first event). */
  afterSeq?: number;
  /** Stops the stream (the client went away). */
  signal?: AbortSignal;
  /** How often to look for new events while the run is running (ms, default 250). */
  pollMs?: number;
  /** How often while it is queued, waiting for a person or needs review (ms, default 1000). */
  idlePollMs?: number;
  /** Events per store read (default 200). */
  pageSize?: number;
}

/** Yields a run's events from `afterSeq` on, until the run is terminal and drained or the signal aborts. */
export async function* followRunEvents(database: Database, runId: string, options: FollowOptions = {}): AsyncGenerator<RunEventView, void, undefined> {
  await requireRun(database, runId);
  let after = options.afterSeq ?? 0;
  const pollMs = options.pollMs ?? 250;
  const idlePollMs = options.idlePollMs ?? 1000;
  const pageSize = options.pageSize ?? 200;
  while (options.signal?.aborted !== true) {
    const page = await eventsPage(database, runId, { afterSeq: after, limit: pageSize });
    for (const event of page) {
      after = event.seq;
      yield runEventView(event);
    }
    if (page.length === pageSize) continue;
    // Read the status after the page: a terminal run appends nothing more, so an empty re-read means drained.
    const run = await requireRun(database, runId);
    if (isTerminalRunStatus(run.status) && run.lastEventSeq <= after) return;
    try {
      await sleep(run.status === "running" ? pollMs : Math.max(pollMs, idlePollMs), undefined, options.signal ? { signal: options.signal } : {});
    } catch {
      return;
    }
  }
}
