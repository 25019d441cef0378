/**
 * PostgreSQL wake-ups for live readers of the engine's hot writes (step commits, claims, final transitions), sent
 * right AFTER the write commits instead of as a `pg_notify` inside it. PostgreSQL serialises every transaction that
 * notifies, cluster-wide, from its pre-commit until its commit record is on disk (PreCommit_Notify takes one
 * exclusive lock so queue entries appear in commit order; PostgreSQL 15 here). With the notification inside each
 * step commit, four workers' commits queued behind one another's fsync (1.6-2.6 ms on this disk): at most a few
 * hundred steps per second, however many workers. Now the commits flush in parallel (PostgreSQL groups concurrent
 * WAL flushes), and the wake-ups go out in small batches: one statement at a time per pool, carrying every run's
 * latest seq noted meanwhile, committed without waiting for the disk (a wake-up needs no durability).
 *
 * A reader reads after the last seq it saw on any wake-up (run-event-signal.ts), so a late, repeated or stale wake-up
 * changes nothing; one lost to a crash between the commit and this statement is like one sent while a listener
 * reconnects: the next wake-up of that run (another worker's claim after the lease expires) catches the reader up.
 */
import type { Pool as PostgresPool } from "pg";
import { RUN_EVENTS_CHANNEL } from "./run-event-signal";

/** Wake-ups of one pool waiting to be sent (run id -> last seq), and whether a statement is on its way. */
interface Outbox {
  runs: Map<string, number>;
  sending: boolean;
}

const outboxes = new WeakMap<PostgresPool, Outbox>();

const STATEMENT_NAME = "rath_notify_run_events_1";
const STATEMENT = `SELECT set_config('synchronous_commit', 'off', true), pg_notify($1::text, payload) FROM unnest($2::text[]) AS payload`;

/** Wakes live readers of `runId` (events up to `lastSeq`, already committed) soon, through `pool`. Never throws. */
export function notifyRunEventsAfterCommit(pool: PostgresPool, runId: string, lastSeq: number): void {
  let outbox = outboxes.get(pool);
  if (outbox === undefined) {
    outbox = { runs: new Map(), sending: false };
    outboxes.set(pool, outbox);
  }
  outbox.runs.set(runId, Math.max(outbox.runs.get(runId) ?? 0, lastSeq));
  if (!outbox.sending) void send(pool, outbox);
}

async function send(pool: PostgresPool, outbox: Outbox): Promise<void> {
  outbox.sending = true;
  try {
    while (outbox.runs.size > 0) {
      const payloads = [...outbox.runs].map(([runId, lastSeq]) => `${runId}:${lastSeq}`);
      outbox.runs.clear();
      try {
        await pool.query({ name: STATEMENT_NAME, text: STATEMENT, values: [RUN_EVENTS_CHANNEL, payloads] });
      } catch {
        // The pool is closing or the server went away: the wake-up is lost, as one sent while a listener reconnects.
      }
    }
  } finally {
    outbox.sending = false;
  }
}
