/**
 * Pure: the clock of a demo replay. Recorded events are placed on a playback timeline by their recorded times
 * (gaps longer than `maxGapMs` — a run that waited for an approval overnight — are shortened to it), and the clock
 * says how many events are shown at a wall-clock time for a speed (1×, 4×, 16×), paused or playing, and how long
 * to wait until the next one. Stepping moves by one event and pauses. No React, no timers: the hook drives it.
 */

/** Playback speeds offered. */
export const REPLAY_SPEEDS = [1, 4, 16] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];

/** Longest pause between two events kept on the playback timeline (ms of recorded time). */
export const DEFAULT_MAX_GAP_MS = 3_000;

/**
 * Each event comes at least this long (ms of playback at 1×) after the one before: a step's events recorded within
 * the same millisecond, or a whole run of the demo provider (a few ms), would otherwise flash by at once; at this
 * beat an audience sees the graph grow one event at a time (16× still plays 16 events a second).
 */
export const MIN_EVENT_SPACING_MS = 250;

/**
 * Playback offsets (ms from the first event) of events recorded at `times` (ISO strings, in event order): the
 * recorded gaps, each capped at `maxGapMs` and at least `MIN_EVENT_SPACING_MS` (a time that does not parse, repeats
 * or goes back counts as no gap), so every event is one visible step.
 */
export function replayOffsets(times: readonly string[], maxGapMs = DEFAULT_MAX_GAP_MS): number[] {
  const offsets: number[] = [];
  let previousTime: number | null = null;
  let offset = 0;
  times.forEach((time, index) => {
    const parsed = Date.parse(time);
    if (index > 0) {
      const gap = previousTime !== null && Number.isFinite(parsed) ? Math.min(Math.max(0, parsed - previousTime), maxGapMs) : 0;
      offset += Math.max(gap, MIN_EVENT_SPACING_MS);
    }
    if (Number.isFinite(parsed)) previousTime = Math.max(parsed, previousTime ?? parsed);
    offsets.push(offset);
  });
  return offsets;
}

/** The clock's state: the playback position (ms on the offsets' timeline) at a wall time, the speed, playing or not. */
export interface ReplayClock {
  /** Playback position at `anchorWallMs`. */
  positionMs: number;
  anchorWallMs: number;
  speed: ReplaySpeed;
  playing: boolean;
}

/** A clock before the first event (position −1: nothing shown), paused. */
export function initialClock(speed: ReplaySpeed = 1, nowMs = 0): ReplayClock {
  return { positionMs: -1, anchorWallMs: nowMs, speed, playing: false };
}

/** The playback position at wall time `nowMs`. */
export function positionAt(clock: ReplayClock, nowMs: number): number {
  return clock.playing ? clock.positionMs + Math.max(0, nowMs - clock.anchorWallMs) * clock.speed : clock.positionMs;
}

/** How many events are shown at `nowMs`: those whose offset is at or before the position. */
export function shownCount(clock: ReplayClock, offsets: readonly number[], nowMs: number): number {
  const position = positionAt(clock, nowMs);
  let low = 0;
  let high = offsets.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((offsets[middle] as number) <= position) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Wall-clock ms until the next event shows, or null when none is left or the clock is paused. */
export function delayUntilNext(clock: ReplayClock, offsets: readonly number[], nowMs: number): number | null {
  if (!clock.playing) return null;
  const next = offsets[shownCount(clock, offsets, nowMs)];
  if (next === undefined) return null;
  return Math.max(0, (next - positionAt(clock, nowMs)) / clock.speed);
}

/** Starts (or resumes) playing at `nowMs`; at the end it starts again from the beginning. */
export function play(clock: ReplayClock, offsets: readonly number[], nowMs: number): ReplayClock {
  const atEnd = offsets.length > 0 && shownCount(clock, offsets, nowMs) >= offsets.length;
  return { ...clock, positionMs: atEnd ? 0 : Math.max(0, positionAt(clock, nowMs)), anchorWallMs: nowMs, playing: true };
}

/** Pauses at the current position. */
export function pause(clock: ReplayClock, nowMs: number): ReplayClock {
  return { ...clock, positionMs: positionAt(clock, nowMs), anchorWallMs: nowMs, playing: false };
}

/** Changes the speed without moving the position. */
export function setSpeed(clock: ReplayClock, speed: ReplaySpeed, nowMs: number): ReplayClock {
  return { ...clock, positionMs: positionAt(clock, nowMs), anchorWallMs: nowMs, speed };
}

/** Steps one event forward (+1) or back (-1) and pauses there. */
export function step(clock: ReplayClock, offsets: readonly number[], direction: 1 | -1, nowMs: number): ReplayClock {
  const target = Math.min(offsets.length, Math.max(0, shownCount(clock, offsets, nowMs) + direction));
  return { ...clock, positionMs: target === 0 ? -1 : (offsets[target - 1] as number), anchorWallMs: nowMs, playing: false };
}

/** Goes back before the first event (nothing shown) and pauses. */
export function toStart(clock: ReplayClock, nowMs: number): ReplayClock {
  return { ...clock, positionMs: -1, anchorWallMs: nowMs, playing: false };
}

/** Jumps to the end (every event shown) and pauses. */
export function toEnd(clock: ReplayClock, offsets: readonly number[], nowMs: number): ReplayClock {
  return { ...clock, positionMs: offsets.length === 0 ? 0 : (offsets[offsets.length - 1] as number), anchorWallMs: nowMs, playing: false };
}
