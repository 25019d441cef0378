/**
 * Tells live readers that a run has new events, after the transaction that appended them commits. Events stay in
 * the store (the one source of truth); a signal only wakes a reader, which then reads after the last seq it saw,
 * so a signal lost or repeated never loses or repeats an event.
 *
 * - Store functions call `noteAppendedEvents(runId, lastSeq)` inside `database.transaction`; the transaction
 *   collects the notes of its (last, successful) attempt.
 * - SQLite (embedded): after the commit, the notes are published on an in-process bus (`onRunEvents`).
 * - PostgreSQL (server mode): the notes become `pg_notify` calls inside the transaction, which PostgreSQL
 *   delivers to every `LISTEN`ing connection when (and only if) the transaction commits — to any process. The
 *   engine's hot writes (step commits, claims, final transitions) notify right after their commit instead
 *   (run-event-notifier.ts), since a notifying transaction holds a cluster-wide lock until its commit is on disk.
 *
 * The scope and the bus live on `globalThis`: Next.js may bundle this module more than once (route handlers,
 * instrumentation), and the worker and the web server must meet on one bus.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { EventEmitter } from "node:events";

/** The PostgreSQL channel the notifications go to; the payload is `<run id>:<last seq>`. */
export const RUN_EVENTS_CHANNEL = "rath_run_events";

/** Runs whose events one transaction attempt appended: run id -> last seq. */
export type AppendedEvents = Map<string, number>;

interface SignalState {
  scope: AsyncLocalStorage<AppendedEvents>;
  bus: EventEmitter;
}

const STATE_KEY = Symbol.for("rath.runEventSignal");

function state(): SignalState {
  const holder = globalThis as typeof globalThis & { [STATE_KEY]?: SignalState };
  let current = holder[STATE_KEY];
  if (current === undefined) {
    const bus = new EventEmitter();
    // One listener per open stream: there is no leak to warn about.
    bus.setMaxListeners(0);
    current = { scope: new AsyncLocalStorage<AppendedEvents>(), bus };
    holder[STATE_KEY] = current;
  }
  return current;
}

/** Notes, inside a transaction, that `runId` has events up to `lastSeq` (no-op outside `collectAppendedEvents`). */
export function noteAppendedEvents(runId: string, lastSeq: number): void {
  const notes = state().scope.getStore();
  if (notes !== undefined) notes.set(runId, Math.max(notes.get(runId) ?? 0, lastSeq));
}

/** Runs one transaction attempt with a fresh set of notes; returns its result and the notes it collected. */
export async function collectAppendedEvents<T>(attempt: (notes: AppendedEvents) => Promise<T>): Promise<{ result: T; notes: AppendedEvents }> {
  const notes: AppendedEvents = new Map();
  const result = await state().scope.run(notes, () => attempt(notes));
  return { result, notes };
}

/** `collectAppendedEvents` for a synchronous attempt (a transaction run in one go on SQLite's connection). */
export function collectAppendedEventsNow<T>(attempt: () => T): { result: T; notes: AppendedEvents } {
  const notes: AppendedEvents = new Map();
  const result = state().scope.run(notes, attempt);
  return { result, notes };
}

function busKey(locationKey: string, runId: string): string {
  return `${locationKey}\u0000${runId}`;
}

/** Publishes committed notes to this process's listeners of the database at `locationKey`. */
export function publishAppendedEvents(locationKey: string, notes: AppendedEvents): void {
  const bus = state().bus;
  for (const [runId, lastSeq] of notes) bus.emit(busKey(locationKey, runId), lastSeq);
}

/** Listens for new events of `runId` in the database at `locationKey`; returns the unsubscribe function. */
export function onRunEvents(locationKey: string, runId: string, listener: (lastSeq: number) => void): () => void {
  const bus = state().bus;
  const key = busKey(locationKey, runId);
  bus.on(key, listener);
  return () => {
    bus.off(key, listener);
  };
}

/** The key that names one database for the bus: its SQLite file or its PostgreSQL connection string. */
export function databaseKey(location: { provider: "sqlite"; filePath: string } | { provider: "postgresql"; connectionString: string }): string {
  return location.provider === "sqlite" ? `sqlite:${location.filePath}` : `postgresql:${location.connectionString}`;
}
