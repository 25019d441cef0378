import type { RuntimeEvent } from "../events";
import type { RunContext } from "../context";

/** A run context that records every event (for tests). */
export function recordingContext(options: { signal?: AbortSignal } = {}): RunContext & { events: RuntimeEvent[] } {
  const events: RuntimeEvent[] = [];
  return { emit: (event) => events.push(event), signal: options.signal, resources: new Map(), events };
}
