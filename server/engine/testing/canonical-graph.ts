/**
 * The canonical form of a run's session graph for comparing two runs: sessions in the order their
 * `session.created` events were stored, ids replaced by that position, and values that differ between
 * equivalent runs (times, latencies, sandbox handles and directories) removed.
 */
import type { Database } from "../../db/database";
import { eventsPage, type RunEventRecord } from "../../db/run-events";
import { chunkPage, sessionGraph } from "../../db/session-store";

const VOLATILE_KEYS = new Set(["at", "latency_ms", "duration_ms", "handle_id", "working_dir"]);

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).filter(([key]) => !VOLATILE_KEYS.has(key)).map(([key, inner]) => [key, strip(inner)]));
  }
  return value;
}

/** Every stored event of a run, in sequence order. */
export async function allEvents(database: Database, runId: string): Promise<RunEventRecord[]> {
  const events: RunEventRecord[] = [];
  for (;;) {
    const page = await eventsPage(database, runId, { afterSeq: events.at(-1)?.seq ?? 0, limit: 1000 });
    if (page.length === 0) return events;
    events.push(...page);
  }
}

/** The canonical session graph of a run (see the module comment). */
export async function canonicalRunGraph(database: Database, runId: string): Promise<unknown[]> {
  const events = await allEvents(database, runId);
  const order: string[] = [];
  for (const event of events) {
    const id = event.payload.session_id;
    if (event.type === "session.created" && typeof id === "string" && !order.includes(id)) order.push(id);
  }
  const graph = await sessionGraph(database, runId);
  const label = (id: string): string => (order.includes(id) ? `s${order.indexOf(id)}` : "external");
  const byId = new Map(graph.sessions.map((session) => [session.id, session]));
  const result: unknown[] = [];
  for (const id of order) {
    const session = byId.get(id);
    if (!session) {
      result.push({ label: label(id), missing: true });
      continue;
    }
    const chunks = await chunkPage(database, id, { limit: 1000 });
    result.push({
      label: label(id),
      nodeId: session.nodeId,
      parents: session.lineage.parent_session_ids.map(label),
      operator: session.lineage.lineage_operator,
      kind: session.lineage.lineage_kind,
      extras: session.lineage.lineage_extras,
      chunkCount: session.chunkCount,
      usage: session.usage,
      chunks: chunks.map((record) => ({ index: record.index, ...(strip(record.chunk) as object) })),
    });
  }
  for (const session of graph.sessions) if (!order.includes(session.id)) result.push({ label: "unannounced", nodeId: session.nodeId });
  return result;
}
