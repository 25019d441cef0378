import type { ServerResponse } from "node:http";
import { pause } from "./scripted-http-server";

/** One server-sent event: its data (objects are JSON-encoded) and an optional `event:` name. */
export interface ServerSentEvent {
  data: unknown;
  event?: string;
}

/** How {@link writeEventStream} paces and ends a stream. */
export interface EventStreamOptions {
  /** Pause after each event in ms (default 0, which still yields between writes). */
  delayMs?: number;
  /** Destroy the connection instead of writing event number `disconnectAfter` (0-based), to simulate a broken stream. */
  disconnectAfter?: number;
  /** A last `data:` line written after all events, e.g. OpenAI's "[DONE]". */
  finalData?: string;
}

/** Sends `events` as a complete SSE response, or breaks it off as `options.disconnectAfter` says. */
export async function writeEventStream(response: ServerResponse, events: readonly ServerSentEvent[], options: EventStreamOptions = {}): Promise<void> {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  for (const [position, { data, event }] of events.entries()) {
    if (options.disconnectAfter !== undefined && position >= options.disconnectAfter) {
      response.socket?.destroy();
      return;
    }
    writeEvent(response, data, event);
    await pause(options.delayMs ?? 0);
  }
  if (options.finalData !== undefined) writeEvent(response, options.finalData);
  response.end();
}

/** Writes one SSE event: an optional `event:` line and one `data:` line (objects are JSON-encoded). */
function writeEvent(response: ServerResponse, data: unknown, event?: string): void {
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  response.write(`${event === undefined ? "" : `event: ${event}\n`}data: ${payload}\n\n`);
}
