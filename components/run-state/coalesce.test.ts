import { describe, expect, it } from "vitest";
import { createCoalescer, type DelayScheduler } from "./coalesce";

/** A clock and timers that move when the test says so. */
function fakeTime(): { now: () => number; schedule: DelayScheduler; advance: (ms: number) => void; delays: number[] } {
  let time = 0;
  let timers: Array<{ at: number; callback: () => void }> = [];
  const delays: number[] = [];
  return {
    now: () => time,
    schedule: (callback, delayMs) => {
      delays.push(delayMs);
      const timer = { at: time + delayMs, callback };
      timers.push(timer);
      return () => {
        timers = timers.filter((entry) => entry !== timer);
      };
    },
    advance: (ms) => {
      const end = time + ms;
      for (;;) {
        const due = timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at)[0];
        if (due === undefined) break;
        timers = timers.filter((timer) => timer !== due);
        time = due.at;
        due.callback();
      }
      time = end;
    },
    delays,
  };
}

describe("createCoalescer", () => {
  it("hands the first value over in a task of its own, then the latest at most once per interval, ending on the last", () => {
    const clock = fakeTime();
    const delivered: Array<[number, number]> = [];
    const coalescer = createCoalescer<number>((value) => delivered.push([clock.now(), value]), { intervalMs: 250, now: clock.now, schedule: clock.schedule });
    coalescer.push(1);
    expect(delivered).toEqual([]);
    clock.advance(0);
    expect(delivered).toEqual([[0, 1]]);
    // A step every 60 ms: values 2..11 pushed at 60, 120, ..., 600.
    for (let value = 2; value <= 11; value += 1) {
      clock.advance(60);
      coalescer.push(value);
    }
    clock.advance(1000);
    expect(delivered).toEqual([
      [0, 1],
      [250, 5],
      [500, 9],
      [750, 11],
    ]);
    expect(clock.delays).toEqual([0, 190, 200, 210]);
  });

  it("hands a value over at once (next task) when the interval has passed since the last hand-over", () => {
    const clock = fakeTime();
    const delivered: number[] = [];
    const coalescer = createCoalescer<string>((value) => delivered.push(value.length), { intervalMs: 250, now: clock.now, schedule: clock.schedule });
    coalescer.push("a");
    clock.advance(400);
    coalescer.push("bb");
    clock.advance(0);
    expect(delivered).toEqual([1, 2]);
    expect(clock.delays).toEqual([0, 0]);
  });

  it("cancel drops the waiting value; a later push is handed over", () => {
    const clock = fakeTime();
    const delivered: number[] = [];
    const coalescer = createCoalescer<number>((value) => delivered.push(value), { intervalMs: 100, now: clock.now, schedule: clock.schedule });
    coalescer.push(1);
    coalescer.cancel();
    clock.advance(500);
    expect(delivered).toEqual([]);
    coalescer.push(2);
    clock.advance(0);
    expect(delivered).toEqual([2]);
  });
});
