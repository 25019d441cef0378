/**
 * Hands over the latest of a value that changes in bursts (a live run's graph, step after step) at most once per
 * interval: the first change at once (in a task of its own, so after the frame that pushed it is painted), later
 * ones no sooner than `intervalMs` after the previous hand-over; the last value pushed is always handed over (the
 * trailing edge), so what is shown settles to the latest. Pure scheduling; no React.
 */

/** Runs a callback after `delayMs` and returns a handle that cancels it. */
export type DelayScheduler = (callback: () => void, delayMs: number) => () => void;

/** The browser's (or Node's) timers. */
export const timeoutScheduler: DelayScheduler = (callback, delayMs) => {
  const handle = setTimeout(callback, delayMs);
  return () => clearTimeout(handle);
};

/** A coalescing hand-over. */
export interface Coalescer<T> {
  /** The newest value: handed over when its turn comes (an earlier value still waiting is dropped). */
  push: (value: T) => void;
  /** Drops a waiting value. */
  cancel: () => void;
}

/** Options: the least time between two hand-overs, the clock and the timer (both replaceable in tests). */
export interface CoalescerOptions {
  intervalMs: number;
  now?: () => number;
  schedule?: DelayScheduler;
}

/** A coalescer that calls `deliver` with the latest value pushed, at most once per `intervalMs`. */
export function createCoalescer<T>(deliver: (value: T) => void, { intervalMs, now = () => performance.now(), schedule = timeoutScheduler }: CoalescerOptions): Coalescer<T> {
  let latest: { value: T } | null = null;
  let pending: (() => void) | null = null;
  let deliveredAt = Number.NEGATIVE_INFINITY;
  const fire = (): void => {
    pending = null;
    if (latest === null) return;
    const { value } = latest;
    latest = null;
    deliveredAt = now();
    deliver(value);
  };
  return {
    push: (value) => {
      latest = { value };
      pending ??= schedule(fire, Math.max(0, deliveredAt + intervalMs - now()));
    },
    cancel: () => {
      pending?.();
      pending = null;
      latest = null;
    },
  };
}
