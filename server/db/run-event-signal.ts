/**
 * Tells live readers that a run has new events, after the transaction that appended them commits. Events stay in
 * the store (the one source of truth); a signal only wakes a reader, which then reads after the last seq it saw,
 * so a signal lost or repeated never loses or repeats an event.
 *
 * - Store functions note the runs whose events they appended inside a transaction; the transaction collects the
 *   notes of its (last, successful) attempt: `noteTransactionEvents(transaction, ...)` inside `database.transaction`
 *   (the notes hang on its transaction client), `noteAppendedEvents(...)` inside a synchronous attempt
 *   (`collectAppendedEventsNow`: a SQLite write run in one go). No AsyncLocalStorage: with one in use, Node 20 runs
 *   a hook on every promise the process makes (bench/README.md: what it cost an engine step).
 * - SQLite (embedded): after the commit, the notes are published on an in-process bus (`onRunEvents`).
 * - PostgreSQL (server mode): the notes become `pg_notify` calls inside the transaction, which PostgreSQL
 *   delivers to every `LISTEN`ing connection when (and only if) the transaction commits — to any process. The
 *   engine's hot writes (step commits, claims, final transitions) notify right after their commit instead
 *   (run-event-notifier.ts), since a notifying transaction holds a cluster-wide lock until its commit is on disk.
 *
 * The notes and the bus live on `globalThis`: Next.js may bundle this module more than once (route handlers,
 * instrumentation), and the worker and the web server must meet on one bus.
 */
import { EventEmitter } from "node:events";

/** The PostgreSQL channel the notifications go to; the payload is `<run id>:<last seq>`. */
export const RUN_EVENTS_CHANNEL = "rath_run_events";

/** Runs whose events one transaction attempt appended: run id -> last seq. */
export type AppendedEvents = Map<string, number>;

interface SignalState {
  /** The notes of the synchronous attempt running now (nothing else runs meanwhile), or null. */
  now: AppendedEvents | null;
  /** The notes of each open `database.transaction`, by its transaction client. */
  byTransaction: WeakMap<object, AppendedEvents>;
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
    current = { now: null, byTransaction: new WeakMap(), bus };
    holder[STATE_KEY] = current;
  }
  return current;
}

function note(notes: AppendedEvents, runId: string, lastSeq: number): void {
  notes.set(runId, Math.max(notes.get(runId) ?? 0, lastSeq));
}

/** Notes, inside a synchronous attempt, that `runId` has events up to `lastSeq` (no-op outside `collectAppendedEventsNow`). */
export function noteAppendedEvents(runId: string, lastSeq: number): void {
  const notes = state().now;
  if (notes !== null) note(notes, runId, lastSeq);
}

/** Notes that `runId` has events up to `lastSeq` in the transaction `transaction` (no-op unless it collects them). */
export function noteTransactionEvents(transaction: object, runId: string, lastSeq: number): void {
  const notes = state().byTransaction.get(transaction);
  if (notes !== undefined) note(notes, runId, lastSeq);
}

/** Starts collecting, with a fresh set, the notes of the transaction attempt running on `transaction`; returns the set. */
export function collectTransactionEvents(transaction: object): AppendedEvents {
  const notes: AppendedEvents = new Map();
  state().byTransaction.set(transaction, notes);
  return notes;
}

/** Runs one synchronous transaction attempt with a fresh set of notes; returns its result and the notes it collected. */
export function collectAppendedEventsNow<T>(attempt: () => T): { result: T; notes: AppendedEvents } {
  const current = state();
  const outer = current.now;
  const notes: AppendedEvents = new Map();
  current.now = notes;
  try {
    return { result: attempt(), notes };
  } finally {
    current.now = outer;
  }
}

/** Adds `notes` (a synchronous attempt's) to those of the transaction `transaction`. */
export function noteTransactionEventsOf(transaction: object, notes: AppendedEvents): void {
  for (const [runId, lastSeq] of notes) noteTransactionEvents(transaction, runId, lastSeq);
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
