/**
 * Pure: when each recorded event happened, for the replay clock. A step's events are stored together at its commit,
 * but its chunks carry the time they were made (`chunk.meta.at`): a chunk event takes its chunk's time, and the
 * other events of the same commit that come before a chunk (its `session.created`) take that chunk's time, so chunks
 * stream in as they did instead of arriving at once when the step ended.
 */
import type { RunEventData } from "../run-state/live-graph";

function chunkTime(event: RunEventData): string | null {
  if (event.type !== "chunk.appended") return null;
  const chunk = event.payload.chunk as { meta?: { at?: unknown } } | undefined;
  const at = chunk?.meta?.at;
  return typeof at === "string" && Number.isFinite(Date.parse(at)) ? at : null;
}

/** The time of each event (ISO), in event order. */
export function eventTimes(events: readonly RunEventData[]): string[] {
  const times = events.map((event) => event.at);
  let nextChunk: string | null = null;
  let commit: string | null = null;
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index] as RunEventData;
    if (event.at !== commit) {
      commit = event.at;
      nextChunk = null;
    }
    const own = chunkTime(event);
    if (own !== null) {
      nextChunk = own;
      times[index] = own;
    } else if (nextChunk !== null && Date.parse(nextChunk) < Date.parse(event.at)) {
      times[index] = nextChunk;
    }
  }
  return times;
}
