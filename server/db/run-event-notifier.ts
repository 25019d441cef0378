/**
 * PostgreSQL wake-ups for live readers of the engine's hot writes (step commits, claims, final transitions), sent
 * right AFTER the write commits instead of as a `pg_notify` inside it. PostgreSQL serialises every transaction that
 * notifies, cluster-wide, from its pre-commit until its commit record is on disk (PreCommit_Notify takes one
 * exclusive lock so queue entries appear in commit order; PostgreSQL 15 here). With the notification inside each
 * step commit, four workers' commits queued behind one another's fsync (1.6-2.6 ms on this disk): at most a few
 * hundred steps per second, however many workers. Now the commits flush in parallel (PostgreSQL groups concurrent
 * WAL flushes), and the wake-ups go out in batches: one statement at a time per pool and at most one per
 * WAKE_UP_INTERVAL_MS, carrying every run's latest seq noted meanwhile, committed without waiting for the disk (a
 * wake-up needs no durability), on the connection of the write that finds one due (writeThenWakeUp).
 *
 * A reader reads after the last seq it saw on any wake-up (run-event-signal.ts), so a late, repeated or stale wake-up
 * changes nothing; one lost to a crash between the commit and this statement is like one sent while a listener
 * reconnects: the next wake-up of that run (another worker's claim after the lease expires) catches the reader up.
 */
import type { Pool as PostgresPool, PoolClient } from "pg";
import { RUN_EVENTS_CHANNEL } from "./run-event-signal";

/**
 * The shortest time between two wake-up statements of one pool. Wake-ups noted meanwhile wait for the next one,
 * which carries them all: a busy pool sends at most 1000 / WAKE_UP_INTERVAL_MS statements a second, however many
 * steps its workers commit. With four claim loops a statement per commit was 0.76 statements per step (each a
 * round trip and a transaction).
 */
export const WAKE_UP_INTERVAL_MS = 4;

/** Outbox of one pool: wake-ups waiting (run id -> last seq), whether a statement is on its way, the fallback timer. */
interface Outbox {
  runs: Map<string, number>;
  sending: boolean;
  timer: ReturnType<typeof setTimeout> | null;
  /** performance.now() when the last statement was sent. */
  sentAt: number;
  /** Writes of `writeThenWakeUp` holding a connection of the pool now. */
  writers: number;
}

const outboxes = new WeakMap<PostgresPool, Outbox>();

const STATEMENT_NAME = "rath_notify_run_events_1";
const STATEMENT = `SELECT set_config('synchronous_commit', 'off', true), pg_notify($1::text, payload) FROM unnest($2::text[]) AS payload`;

function outboxOf(pool: PostgresPool): Outbox {
  let outbox = outboxes.get(pool);
  if (outbox === undefined) {
    outbox = { runs: new Map(), sending: false, timer: null, sentAt: -Infinity, writers: 0 };
    outboxes.set(pool, outbox);
  }
  return outbox;
}

function note(outbox: Outbox, runId: string, lastSeq: number): void {
  outbox.runs.set(runId, Math.max(outbox.runs.get(runId) ?? 0, lastSeq));
}

function due(outbox: Outbox): boolean {
  return !outbox.sending && outbox.runs.size > 0 && outbox.sentAt + WAKE_UP_INTERVAL_MS <= performance.now();
}

/** What a write of `writeThenWakeUp` returns: its result, and the run whose readers to wake (its last event seq). */
export interface WriteOutcome<T> {
  result: T;
  wakeUp: { runId: string; lastSeq: number } | null;
}

/**
 * Runs `write` (one statement that commits on its own) on a connection of `pool`, then wakes the live readers of
 * the run it names; the connection is released after. When a wake-up statement is due (none sent in the last
 * WAKE_UP_INTERVAL_MS), the pool's waiting wake-ups go out on this connection before it is released; otherwise
 * they wait for the next write that finds one due, or, when none comes, a timer sends them from the pool one
 * interval later, once no write holds a connection (a reader hears of a commit at most about 2 x
 * WAKE_UP_INTERVAL_MS, or a statement in flight, after it). So the wake-ups need no connection of their own while
 * writers are busy: with four claim loops, a wake-up statement on a connection of its own made the pool open a
 * fifth connection, and a new connection costs PostgreSQL its start-up and catalog warm-up (~30-40 ms of server
 * CPU on this machine). A failing `write` throws its error (the connection is then dropped, as `pool.query`
 * does); a failing wake-up is lost, like one sent while a listener reconnects.
 */
export async function writeThenWakeUp<T>(pool: PostgresPool, write: (client: PoolClient) => Promise<WriteOutcome<T>>): Promise<T> {
  const outbox = outboxOf(pool);
  outbox.writers += 1;
  let client: PoolClient | null = null;
  let failed: Error | undefined;
  try {
    client = await pool.connect();
    let outcome: WriteOutcome<T>;
    try {
      outcome = await write(client);
    } catch (error) {
      failed = error instanceof Error ? error : new Error(String(error));
      throw error;
    }
    if (outcome.wakeUp !== null) note(outbox, outcome.wakeUp.runId, outcome.wakeUp.lastSeq);
    if (due(outbox)) failed = await send(pool, outbox, client);
    else setFallbackTimer(pool, outbox);
    return outcome.result;
  } finally {
    outbox.writers -= 1;
    client?.release(failed);
  }
}

/** Sends the waiting wake-ups from the pool when no write has carried them (see `writeThenWakeUp`). */
function setFallbackTimer(pool: PostgresPool, outbox: Outbox): void {
  if (outbox.timer !== null || outbox.runs.size === 0) return;
  const wait = Math.max(0, outbox.sentAt + WAKE_UP_INTERVAL_MS - performance.now()) + WAKE_UP_INTERVAL_MS;
  outbox.timer = setTimeout(() => {
    outbox.timer = null;
    if (outbox.sending || outbox.runs.size === 0) return;
    // A write holding a connection now carries them when it ends (they are due by then); check again later.
    if (outbox.writers > 0) setFallbackTimer(pool, outbox);
    else void send(pool, outbox, null);
  }, Math.ceil(wait));
}

/** Sends every waiting wake-up in one statement, on `client` or from the pool; resolves to its error, if any. */
async function send(pool: PostgresPool, outbox: Outbox, client: PoolClient | null): Promise<Error | undefined> {
  if (outbox.timer !== null) {
    clearTimeout(outbox.timer);
    outbox.timer = null;
  }
  outbox.sending = true;
  outbox.sentAt = performance.now();
  const payloads = [...outbox.runs].map(([runId, lastSeq]) => `${runId}:${lastSeq}`);
  outbox.runs.clear();
  try {
    const query = { name: STATEMENT_NAME, text: STATEMENT, values: [RUN_EVENTS_CHANNEL, payloads] };
    await (client === null ? pool.query(query) : client.query(query));
    return undefined;
  } catch (error) {
    // The pool is closing or the server went away: the wake-up is lost, as one sent while a listener reconnects.
    return error instanceof Error ? error : new Error(String(error));
  } finally {
    outbox.sending = false;
    setFallbackTimer(pool, outbox);
  }
}
