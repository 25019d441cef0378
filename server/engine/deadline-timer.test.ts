/**
 * The run deadline's timer fires by the wall clock: a timer that Node fires before `Date.now` reaches the deadline
 * (its loop clock and `Date.now` do not tick together) is armed again for the rest, instead of being taken as "not
 * yet" and dropped (then a step ran on past its deadline until the next heartbeat: 8 s instead of 1.2 s in a CI run).
 */
import { expect, it } from "vitest";
import { MAX_TIMER_MS, startDeadlineTimer, type DeadlineClock } from "./deadline-timer";

/** A clock whose time the test sets, and whose timers the test fires. */
function manualClock(): DeadlineClock & { time: number; timers: Array<{ callback: () => void; milliseconds: number; cleared: boolean }>; fire(): void } {
  const clock = {
    time: 0,
    timers: [] as Array<{ callback: () => void; milliseconds: number; cleared: boolean }>,
    now: () => clock.time,
    setTimeout(callback: () => void, milliseconds: number) {
      const timer = { callback, milliseconds, cleared: false };
      clock.timers.push(timer);
      return timer;
    },
    clearTimeout(handle: unknown) {
      (handle as { cleared: boolean }).cleared = true;
    },
    /** Fires the latest timer. */
    fire() {
      const timer = clock.timers.at(-1);
      if (timer === undefined || timer.cleared) throw new Error("no timer armed");
      timer.cleared = true;
      timer.callback();
    },
  };
  return clock;
}

it("arms again when its timer fires before the clock reaches the deadline, and fires once when it has", () => {
  const clock = manualClock();
  let passed = 0;
  startDeadlineTimer(1_200, () => (passed += 1), clock);
  expect(clock.timers.map((timer) => timer.milliseconds)).toEqual([1_200]);
  // Node fired the timer a millisecond early by the wall clock.
  clock.time = 1_199;
  clock.fire();
  expect(passed).toBe(0);
  expect(clock.timers.map((timer) => timer.milliseconds)).toEqual([1_200, 1]);
  clock.time = 1_201;
  clock.fire();
  expect(passed).toBe(1);
  expect(clock.timers).toHaveLength(2);
});

it("fires from a timer, not at once, when the deadline has already passed", () => {
  const clock = manualClock();
  clock.time = 5_000;
  let passed = 0;
  startDeadlineTimer(1_000, () => (passed += 1), clock);
  expect(passed).toBe(0);
  expect(clock.timers.map((timer) => timer.milliseconds)).toEqual([0]);
  clock.fire();
  expect(passed).toBe(1);
});

it("stops when cancelled, also between an early firing and the next", () => {
  const clock = manualClock();
  let passed = 0;
  const timer = startDeadlineTimer(1_000, () => (passed += 1), clock);
  clock.time = 990;
  clock.fire();
  timer.cancel();
  expect(clock.timers.at(-1)?.cleared).toBe(true);
  clock.time = 2_000;
  clock.timers.at(-1)?.callback();
  expect(passed).toBe(0);
});

it("arms nothing for a deadline further than a timer can wait", () => {
  const clock = manualClock();
  startDeadlineTimer(MAX_TIMER_MS + 1, () => undefined, clock);
  expect(clock.timers).toEqual([]);
});
