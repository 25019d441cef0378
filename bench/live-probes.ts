/**
 * Timestamps along the live path for `bench:explorer`, taken outside the page: when the run's events reach a plain
 * Node reader of the same `runs.onEvents` stream (the server's push, without the browser), and on PostgreSQL when
 * each `pg_notify` reaches a `LISTEN`ing connection (the commit becoming visible to other processes). Each probe
 * maps an event seq to the time (Date.now()) it was first seen.
 */
import pg from "pg";
import type { Database } from "../server/db/database";
import { followRunEvents } from "../server/services/run-event-stream";

/** A probe: the first time each seq was seen, and how to stop it. */
export interface LiveProbe {
  seen: Map<number, number>;
  /** What the probe learnt about the transport (e.g. the stream's content-encoding). */
  notes: string[];
  stop(): Promise<void>;
}

/** Reads `runs.onEvents` of `runId` as server-sent events from `base`, recording each event id's arrival. */
export function streamProbe(base: string, runId: string): LiveProbe {
  const seen = new Map<number, number>();
  const notes: string[] = [];
  const controller = new AbortController();
  const input = encodeURIComponent(JSON.stringify({ runId }));
  const done = (async () => {
    const response = await fetch(`${base}/api/trpc/runs.onEvents?input=${input}`, { signal: controller.signal, headers: { accept: "text/event-stream" } });
    notes.push(`stream content-encoding: ${response.headers.get("content-encoding") ?? "none"}`);
    if (response.body === null) return;
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    let buffer = "";
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      const now = Date.now();
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const id = /^id: ?(\d+)$/m.exec(buffer.slice(0, end));
        if (id !== null && !seen.has(Number(id[1]))) seen.set(Number(id[1]), now);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
      }
    }
  })().catch(() => undefined);
  return {
    seen,
    notes,
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

/** Listens on PostgreSQL's run-event channel: each notification says the run's events up to its seq committed. */
export async function notifyProbe(connectionString: string, runId: () => string | null): Promise<LiveProbe> {
  const seen = new Map<number, number>();
  const client = new pg.Client({ connectionString });
  await client.connect();
  client.on("notification", (message) => {
    const now = Date.now();
    const payload = message.payload ?? "";
    const separator = payload.lastIndexOf(":");
    if (payload.slice(0, separator) !== runId()) return;
    const seq = Number(payload.slice(separator + 1));
    if (!seen.has(seq)) seen.set(seq, now);
  });
  await client.query("LISTEN rath_run_events");
  return { seen, notes: [], stop: () => client.end() };
}

/** The first time at or after which `seq` was covered (a notification names the last seq of its commit). */
export function coveredAt(seen: ReadonlyMap<number, number>, seq: number): number {
  let best = Number.NaN;
  for (const [last, at] of seen) if (last >= seq && !(at >= best)) best = at;
  return best;
}

/** Follows the run with `followRunEvents` in this process (no Next.js, no tRPC, no HTTP): the store's own push. */
export function followProbe(database: Database, runId: string): LiveProbe {
  const seen = new Map<number, number>();
  const controller = new AbortController();
  const done = (async () => {
    for await (const event of followRunEvents(database, runId, { signal: controller.signal })) if (!seen.has(event.seq)) seen.set(event.seq, Date.now());
  })().catch(() => undefined);
  return {
    seen,
    notes: [],
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}
