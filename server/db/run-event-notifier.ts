/**
 * PostgreSQL wake-ups for live readers of the engine's hot writes (step commits, claims, final transitions), sent
 * right AFTER the write commits instead of as a `pg_notify` inside it. PostgreSQL serialises every transaction that
 * notifies, cluster-wide, from its pre-commit until its commit record is on disk (PreCommit_Notify takes one
 * exclusive lock so queue entries appear in commit order; PostgreSQL 15 here). With the notification inside each
 * step commit, four workers' commits queued behind one another's fsync (1.6-2.6 ms on this disk): at most a few
 * hundred steps per second, however many workers. Now the commits flush in parallel (PostgreSQL groups concurrent
 * WAL flushes), and the wake-ups go out in batches: one statement at a time per pool and at most one per
 * WAKE_UP_INTERVAL_MS, carrying every run's latest seq noted meanwhile, committed without waiting for the disk (a
 * wake-up needs no durability).
 *
 * A reader reads after the last seq it saw on any wake-up (run-event-signal.ts), so a late, repeated or stale wake-up
 * changes nothing; one lost to a crash between the commit and this statement is like one sent while a listener
 * reconnects: the next wake-up of that run (another worker's claim after the lease expires) catches the reader up.
 */
import type { Pool as PostgresPool } from "pg";
import { RUN_EVENTS_CHANNEL } from "./run-event-signal";

/**
 * The shortest time between two wake-up statements of one pool. Wake-ups noted meanwhile wait for the next one,
 * which carries them all: a wake-up is late by at most this (or by the statement in flight), and a busy pool
 * sends at most 1000 / WAKE_UP_INTERVAL_MS statements a second, however many steps its workers commit. With four
 * claim loops a statement per commit was 0.76 statements per step (each a round trip and a transaction).
 */
export const WAKE_UP_INTERVAL_MS = 4;

/** Wake-ups of one pool waiting to be sent (run id -> last seq), whether a statement is on its way or due. */
interface Outbox {
  runs: Map<string, number>;
  sending: boolean;
  timer: ReturnType<typeof setTimeout> | null;
  /** performance.now() when the last statement was sent. */
  sentAt: number;
}

const outboxes = new WeakMap<PostgresPool, Outbox>();

const STATEMENT_NAME = "rath_notify_run_events_1";
const STATEMENT = `SELECT set_config('synchronous_commit', 'off', true), pg_notify($1::text, payload) FROM unnest($2::text[]) AS payload`;

/**
 * Wakes live readers of `runId` (events up to `lastSeq`, already committed) through `pool`: at once when the pool
 * sent none in the last WAKE_UP_INTERVAL_MS, else with the next statement. Never throws.
 */
export function notifyRunEventsAfterCommit(pool: PostgresPool, runId: string, lastSeq: number): void {
  let outbox = outboxes.get(pool);
  if (outbox === undefined) {
    outbox = { runs: new Map(), sending: false, timer: null, sentAt: -Infinity };
    outboxes.set(pool, outbox);
  }
  outbox.runs.set(runId, Math.max(outbox.runs.get(runId) ?? 0, lastSeq));
  schedule(pool, outbox);
}

/** Sends the outbox now, or sets a timer for when the interval since the last statement has passed. */
function schedule(pool: PostgresPool, outbox: Outbox): void {
  if (outbox.sending || outbox.timer !== null || outbox.runs.size === 0) return;
  const wait = outbox.sentAt + WAKE_UP_INTERVAL_MS - performance.now();
  if (wait <= 0) {
    void send(pool, outbox);
    return;
  }
  outbox.timer = setTimeout(() => {
    outbox.timer = null;
    void send(pool, outbox);
  }, Math.ceil(wait));
}

async function send(pool: PostgresPool, outbox: Outbox): Promise<void> {
  outbox.sending = true;
  outbox.sentAt = performance.now();
  const payloads = [...outbox.runs].map(([runId, lastSeq]) => `${runId}:${lastSeq}`);
  outbox.runs.clear();
  try {
    await pool.query({ name: STATEMENT_NAME, text: STATEMENT, values: [RUN_EVENTS_CHANNEL, payloads] });
  } catch {
    // The pool is closing or the server went away: the wake-up is lost, as one sent while a listener reconnects.
  } finally {
    outbox.sending = false;
  }
  schedule(pool, outbox);
}
