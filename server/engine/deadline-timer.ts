/**
 * A timer that fires once the wall clock (`Date.now`, what a run's `deadline_at` is compared with) has reached a
 * deadline. Node's timers count on the event loop's own millisecond clock, whose millisecond boundaries are not
 * `Date.now`'s: a `setTimeout(fn, deadline - Date.now())` can run while `Date.now()` is still a millisecond short of
 * the deadline (2 of 300 such timers on this machine). Then this timer is armed again for the rest, where a plain
 * timer's "not yet" left a step running past its deadline until the next heartbeat. `onPassed` runs once.
 */

/** The longest delay `setTimeout` honours (ms); a later deadline is not armed (the caller's heartbeat covers it). */
export const MAX_TIMER_MS = 2_147_483_647;

/** What the timer reads and schedules with (tests pass their own). */
export interface DeadlineClock {
  now(): number;
  setTimeout(callback: () => void, milliseconds: number): unknown;
  clearTimeout(handle: unknown): void;
}

const SYSTEM_CLOCK: DeadlineClock = {
  now: () => Date.now(),
  setTimeout: (callback, milliseconds) => setTimeout(callback, milliseconds),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Calls `onPassed` from a timer once `clock.now()` >= `deadlineMs` (never synchronously, even when it has passed);
 * `cancel` stops it. Not armed when the deadline is further than `MAX_TIMER_MS`.
 */
export function startDeadlineTimer(deadlineMs: number, onPassed: () => void, clock: DeadlineClock = SYSTEM_CLOCK): { cancel(): void } {
  let handle: unknown = null;
  let cancelled = false;
  const arm = (remaining: number) => {
    if (remaining > MAX_TIMER_MS) return;
    handle = clock.setTimeout(() => {
      handle = null;
      if (cancelled) return;
      const left = deadlineMs - clock.now();
      if (left <= 0) onPassed();
      else arm(left);
    }, Math.max(0, remaining));
  };
  arm(deadlineMs - clock.now());
  return {
    cancel() {
      cancelled = true;
      if (handle !== null) clock.clearTimeout(handle);
      handle = null;
    },
  };
}
