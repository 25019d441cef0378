import { describe, expect, it } from "vitest";
import { runEvent } from "../run-state/testing-sessions";
import { delayUntilNext, initialClock, MIN_EVENT_SPACING_MS, pause, play, replayOffsets, setSpeed, shownCount, step, toEnd } from "./replay-clock";
import { eventTimes } from "./replay-events";

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0) + seconds * 1000).toISOString();

describe("replayOffsets", () => {
  it("keeps recorded gaps, caps long ones, and spreads events closer than the minimum beat to it", () => {
    expect(MIN_EVENT_SPACING_MS).toBe(250);
    expect(replayOffsets([at(0), at(1), at(1), at(3), at(100)], 5_000)).toEqual([0, 1000, 1250, 3250, 8250]);
    expect(replayOffsets([at(0), at(0.01), at(0.02), at(0.5)])).toEqual([0, 250, 500, 980]);
    expect(replayOffsets(["not a time", at(2), at(1)])).toEqual([0, 250, 500]);
    expect(replayOffsets([])).toEqual([]);
  });
});

describe("the replay clock", () => {
  const offsets = [0, 1000, 2000, 6000];

  it("shows events at their offsets scaled by the speed", () => {
    let clock = play(initialClock(1, 0), offsets, 0);
    expect(shownCount(clock, offsets, 0)).toBe(1);
    expect(shownCount(clock, offsets, 999)).toBe(1);
    expect(shownCount(clock, offsets, 1000)).toBe(2);
    expect(delayUntilNext(clock, offsets, 1000)).toBe(1000);
    clock = play(initialClock(4, 0), offsets, 0);
    expect(shownCount(clock, offsets, 250)).toBe(2);
    expect(delayUntilNext(clock, offsets, 250)).toBe(250);
    clock = play(initialClock(16, 0), offsets, 0);
    expect(shownCount(clock, offsets, 375)).toBe(4);
    expect(delayUntilNext(clock, offsets, 375)).toBeNull();
  });

  it("pauses (time passing shows nothing more), resumes where it was, and keeps the position when the speed changes", () => {
    let clock = play(initialClock(1, 0), offsets, 0);
    clock = pause(clock, 1500);
    expect(shownCount(clock, offsets, 50_000)).toBe(2);
    expect(delayUntilNext(clock, offsets, 50_000)).toBeNull();
    clock = play(clock, offsets, 50_000);
    expect(shownCount(clock, offsets, 50_499)).toBe(2);
    expect(shownCount(clock, offsets, 50_500)).toBe(3);
    clock = setSpeed(clock, 16, 50_500);
    expect(shownCount(clock, offsets, 50_500)).toBe(3);
    expect(delayUntilNext(clock, offsets, 50_500)).toBe(250);
  });

  it("steps one event forward and back, pausing, within the bounds", () => {
    let clock = initialClock(1, 0);
    expect(shownCount(clock, offsets, 0)).toBe(0);
    clock = step(clock, offsets, 1, 10);
    expect(clock.playing).toBe(false);
    expect(shownCount(clock, offsets, 99_999)).toBe(1);
    clock = step(step(clock, offsets, 1, 20), offsets, 1, 30);
    expect(shownCount(clock, offsets, 40)).toBe(3);
    clock = step(clock, offsets, -1, 50);
    expect(shownCount(clock, offsets, 60)).toBe(2);
    clock = step(step(step(clock, offsets, -1, 70), offsets, -1, 80), offsets, -1, 90);
    expect(shownCount(clock, offsets, 100)).toBe(0);
    clock = toEnd(clock, offsets, 110);
    expect(shownCount(clock, offsets, 120)).toBe(4);
    expect(step(clock, offsets, 1, 130).positionMs).toBe(6000);
    // Playing again from the end starts over.
    expect(shownCount(play(clock, offsets, 200), offsets, 200)).toBe(1);
  });
});

describe("eventTimes", () => {
  it("gives chunk events their chunk's time and the events before them in the same commit that time too", () => {
    const commit = at(10);
    const events = [
      runEvent(1, "run.claimed", {}, at(0)),
      runEvent(2, "session.created", { session_id: "s" }, commit),
      runEvent(3, "chunk.appended", { session_id: "s", index: 0, chunk: { kind: "user", payload: { content: "q" }, meta: { at: at(2) } } }, commit),
      runEvent(4, "chunk.appended", { session_id: "s", index: 1, chunk: { kind: "assistant", payload: { content: "a" }, meta: { at: at(7) } } }, commit),
      runEvent(5, "run.step.completed", {}, commit),
    ];
    expect(eventTimes(events)).toEqual([at(0), at(2), at(2), at(7), commit]);
  });
});
