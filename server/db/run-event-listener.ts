/**
 * Live wake-ups for readers of a run's events (see run-event-signal.ts for the sending side).
 *
 * - SQLite: the in-process bus that `database.transaction` publishes to after each commit. Writers in other
 *   processes on the same file (a `rath run`, a worker beside the studio) are not heard: readers keep a slow
 *   fallback read of the store for them.
 * - PostgreSQL: one dedicated connection per process and database runs `LISTEN rath_run_events` and republishes
 *   every notification on the in-process bus. It connects when the first reader subscribes, reconnects with
 *   backoff while readers remain (waking all of them on reconnect, since notifications sent meanwhile are lost),
 *   and disconnects when the last one leaves.
 */
import pg from "pg";
import type { DatabaseLocation } from "./database-url";
import { databaseKey, onRunEvents, publishAppendedEvents, RUN_EVENTS_CHANNEL } from "./run-event-signal";

/** A reader's subscription to one run's wake-ups. */
export interface RunEventSubscription {
  /** Whether wake-ups are being delivered right now (false while the PostgreSQL listener is reconnecting). */
  live(): boolean;
  unsubscribe(): void;
}

/** Every subscriber of a database also hears this pseudo-run: "re-read, something may have been missed". */
const EVERY_RUN = "*";

interface PostgresListener {
  client: pg.Client | null;
  connected: boolean;
  subscribers: number;
  retryMs: number;
  timer: NodeJS.Timeout | null;
}

const LISTENERS_KEY = Symbol.for("rath.runEventListeners");

function listeners(): Map<string, PostgresListener> {
  const holder = globalThis as typeof globalThis & { [LISTENERS_KEY]?: Map<string, PostgresListener> };
  holder[LISTENERS_KEY] ??= new Map();
  return holder[LISTENERS_KEY];
}

/** Subscribes `onWake` to new events of `runId` in the database at `location`. */
export function subscribeRunEvents(location: DatabaseLocation, runId: string, onWake: () => void): RunEventSubscription {
  const key = databaseKey(location);
  const offRun = onRunEvents(key, runId, onWake);
  const offAll = onRunEvents(key, EVERY_RUN, onWake);
  if (location.provider === "sqlite") {
    return {
      live: () => true,
      unsubscribe: () => {
        offRun();
        offAll();
      },
    };
  }
  const listener = acquireListener(key, location.connectionString);
  let done = false;
  return {
    live: () => listener.connected,
    unsubscribe: () => {
      if (done) return;
      done = true;
      offRun();
      offAll();
      releaseListener(key, listener);
    },
  };
}

function acquireListener(key: string, connectionString: string): PostgresListener {
  let listener = listeners().get(key);
  if (listener === undefined) {
    listener = { client: null, connected: false, subscribers: 0, retryMs: 250, timer: null };
    listeners().set(key, listener);
  }
  listener.subscribers += 1;
  if (listener.client === null && listener.timer === null) connect(key, connectionString, listener);
  return listener;
}

function releaseListener(key: string, listener: PostgresListener): void {
  listener.subscribers -= 1;
  if (listener.subscribers > 0) return;
  listeners().delete(key);
  if (listener.timer !== null) clearTimeout(listener.timer);
  listener.timer = null;
  const client = listener.client;
  listener.client = null;
  listener.connected = false;
  if (client !== null) void client.end().catch(() => undefined);
}

function connect(key: string, connectionString: string, listener: PostgresListener): void {
  const client = new pg.Client({ connectionString, application_name: "rath-run-events" });
  listener.client = client;
  const lost = (): void => {
    if (listener.client !== client) return;
    listener.client = null;
    listener.connected = false;
    void client.end().catch(() => undefined);
    if (listener.subscribers <= 0) return;
    // Readers fall back to polling the store while the connection is down (see `live()`); try again with backoff.
    publishAppendedEvents(key, new Map([[EVERY_RUN, 0]]));
    listener.timer = setTimeout(() => {
      listener.timer = null;
      if (listener.subscribers > 0 && listener.client === null) connect(key, connectionString, listener);
    }, listener.retryMs);
    listener.timer.unref();
    listener.retryMs = Math.min(listener.retryMs * 2, 10_000);
  };
  client.on("error", lost);
  client.on("end", lost);
  client.on("notification", (message) => {
    if (message.channel !== RUN_EVENTS_CHANNEL || message.payload === undefined) return;
    const separator = message.payload.lastIndexOf(":");
    if (separator <= 0) return;
    const runId = message.payload.slice(0, separator);
    const lastSeq = Number(message.payload.slice(separator + 1));
    publishAppendedEvents(key, new Map([[runId, Number.isFinite(lastSeq) ? lastSeq : 0]]));
  });
  client
    .connect()
    .then(() => client.query(`LISTEN ${RUN_EVENTS_CHANNEL}`))
    .then(() => {
      if (listener.client !== client) return;
      listener.connected = true;
      listener.retryMs = 250;
      // Anything committed while not listening was not heard: every reader re-reads once.
      publishAppendedEvents(key, new Map([[EVERY_RUN, 0]]));
    })
    .catch(lost);
}

/** How many PostgreSQL listener connections this process holds (tests). */
export function openListenerCount(): number {
  return [...listeners().values()].filter((listener) => listener.client !== null).length;
}
