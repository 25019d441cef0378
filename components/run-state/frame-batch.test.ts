import { describe, expect, it } from "vitest";
import { createFrameBatch, type FrameScheduler } from "./frame-batch";

/** A scheduler whose frames run when the test says so. */
function fakeFrames(): { schedule: FrameScheduler; runFrame: () => void; pending: () => number } {
  let callbacks: Array<() => void> = [];
  return {
    schedule: (callback) => {
      callbacks.push(callback);
      return () => {
        callbacks = callbacks.filter((entry) => entry !== callback);
      };
    },
    runFrame: () => {
      const due = callbacks;
      callbacks = [];
      for (const callback of due) callback();
    },
    pending: () => callbacks.length,
  };
}

describe("createFrameBatch", () => {
  it("hands a burst over once, at the next frame, in arrival order", () => {
    const frames = fakeFrames();
    const flushed: number[][] = [];
    const batch = createFrameBatch<number>((items) => flushed.push(items), frames.schedule);
    for (let item = 1; item <= 50; item += 1) batch.push(item);
    expect(flushed).toEqual([]);
    expect(frames.pending()).toBe(1);
    frames.runFrame();
    expect(flushed).toEqual([Array.from({ length: 50 }, (_, index) => index + 1)]);
    frames.runFrame();
    expect(flushed).toHaveLength(1);
    batch.push(51);
    frames.runFrame();
    expect(flushed).toEqual([expect.any(Array), [51]]);
  });

  it("flushNow hands over at once and cancels the frame; cancel drops the queue", () => {
    const frames = fakeFrames();
    const flushed: string[][] = [];
    const batch = createFrameBatch<string>((items) => flushed.push(items), frames.schedule);
    batch.push("a");
    batch.flushNow();
    expect(flushed).toEqual([["a"]]);
    expect(frames.pending()).toBe(0);
    batch.flushNow();
    expect(flushed).toHaveLength(1);
    batch.push("b");
    batch.cancel();
    frames.runFrame();
    expect(flushed).toHaveLength(1);
  });
});
