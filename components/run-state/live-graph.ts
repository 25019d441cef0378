/**
 * Applies a run's streamed events to its session graph (the `sessions.graph` answer) without a re-read: a
 * `session.created` adds a session (its parents are its lineage's), a `chunk.appended` grows a session's chunk count, own usage and
 * tool errors. Applying is idempotent — an event the graph already reflects (the graph may have been read after
 * some of the events that follow its `eventSeq`) changes nothing — and returns the same object when nothing
 * changed, so React skips the render. Pure; no React.
 */
import type { Chunk } from "../../runtime/session/chunk";
import { addUsage } from "../../runtime/session/usage";
import type { RouterOutputs } from "../trpc/router-types";
import { isRecord } from "../../runtime/is-record";

/** The session graph of a run as the API returns it. */
export type SessionGraphData = RouterOutputs["sessions"]["graph"];
/** One session of it. */
export type GraphSessionData = SessionGraphData["sessions"][number];
/** One run event as streamed. */
export type RunEventData = RouterOutputs["runs"]["events"]["events"][number];

function lineageOf(value: unknown): GraphSessionData["lineage"] | null {
  if (!isRecord(value) || !Array.isArray(value.parent_session_ids) || typeof value.lineage_kind !== "string") return null;
  return value as GraphSessionData["lineage"];
}

/** A session first seen in a `session.created` event (what the event tells; the rest is filled as chunks arrive). */
function createdSession(event: RunEventData): GraphSessionData | null {
  const { session_id: id, chunk_count: count, node_id: nodeId } = event.payload;
  const lineage = lineageOf(event.payload.lineage);
  if (typeof id !== "string" || lineage === null) return null;
  const chunkCount = typeof count === "number" && Number.isInteger(count) && count >= 0 ? count : 0;
  const root = lineage.parent_session_ids.length === 0 && lineage.lineage_kind !== "op_detach";
  return {
    id,
    nodeId: typeof nodeId === "string" ? nodeId : null,
    lineage,
    ownUsage: null,
    chunkCount,
    inheritedChunkCount: root ? 0 : chunkCount,
    status: "ok",
    error: null,
    toolErrors: null,
  };
}

/** The session after one of its chunks arrived (unchanged when the graph already counts it). */
function withChunk(session: GraphSessionData, index: number, chunk: Chunk): GraphSessionData {
  if (index < session.chunkCount) return session;
  const own = index >= session.inheritedChunkCount;
  const failed = chunk.kind === "tool_result" && chunk.meta.evidence?.ok === false;
  return {
    ...session,
    chunkCount: index + 1,
    ownUsage: own ? addUsage(session.ownUsage, chunk.meta.usage) : session.ownUsage,
    toolErrors:
      own && failed
        ? { count: (session.toolErrors?.count ?? 0) + 1, firstIndex: Math.min(session.toolErrors?.firstIndex ?? index, index) }
        : session.toolErrors,
  };
}

/**
 * The graph after `events` (in seq order). Sessions keep parents-first order: a new session goes last, which is
 * after its parents since a session is always announced after them. `eventSeq` advances to the last event.
 */
export function applyRunEvents(graph: SessionGraphData, events: readonly RunEventData[]): SessionGraphData {
  let sessions: GraphSessionData[] | null = null;
  let index: Map<string, number> | null = null;
  const positions = (): Map<string, number> => {
    index ??= new Map((sessions ?? graph.sessions).map((session, position) => [session.id, position]));
    return index;
  };
  let lastSeq = graph.eventSeq;
  for (const event of events) {
    if (event.seq <= lastSeq) continue;
    lastSeq = event.seq;
    if (event.type === "session.created") {
      const created = createdSession(event);
      if (created === null || positions().has(created.id)) continue;
      sessions ??= [...graph.sessions];
      positions().set(created.id, sessions.length);
      sessions.push(created);
    } else if (event.type === "chunk.appended") {
      const { session_id: sessionId, index: chunkIndex, chunk } = event.payload;
      if (typeof sessionId !== "string" || typeof chunkIndex !== "number" || !isRecord(chunk) || !isRecord(chunk.meta)) continue;
      const at = positions().get(sessionId);
      if (at === undefined) continue;
      const current = (sessions ?? graph.sessions)[at] as GraphSessionData;
      const next = withChunk(current, chunkIndex, chunk as Chunk);
      if (next === current) continue;
      sessions ??= [...graph.sessions];
      sessions[at] = next;
    }
  }
  if (sessions === null && lastSeq === graph.eventSeq) return graph;
  return { ...graph, sessions: sessions ?? graph.sessions, eventSeq: lastSeq };
}

/**
 * Whether an event names a session the graph does not know (a session stored without an announcement): the
 * graph must then be read again. A session announced by an earlier event of the same batch is known: a live step
 * commits its `session.created` and the session's first `chunk.appended` together, and counting those as unknown
 * read the whole graph again for every new session.
 */
export function namesUnknownSession(graph: SessionGraphData, events: readonly RunEventData[]): boolean {
  let known: Set<string> | null = null;
  for (const event of events) {
    if (event.type !== "chunk.appended" && event.type !== "session.created") continue;
    const id = event.payload.session_id;
    if (typeof id !== "string") continue;
    known ??= new Set(graph.sessions.map((session) => session.id));
    if (event.type === "session.created") {
      if (createdSession(event) !== null) known.add(id);
    } else if (!known.has(id)) return true;
  }
  return false;
}
