/**
 * The chunks a live run's `chunk.appended` events carried, per session, so the chunk list shows them without asking
 * `sessions.chunks` again: each session keeps the unbroken tail of its chunks that arrived since the page opened
 * (from the first index seen to the last). Chunks before that tail (inherited, or committed before the page read
 * the graph) are read in pages as before. Idempotent like `applyRunEvents`; returns the same map when nothing
 * changed. Pure; no React.
 *
 * Bounded (a long live run would otherwise keep every chunk it streamed): a tail keeps at most MAX_TAIL_CHUNKS (past
 * that it keeps its newest half: its start moves on and the chunks before it are read in pages), and at most
 * MAX_TAIL_SESSIONS sessions keep a tail (the one that grew least recently is dropped: its chunks are read in pages).
 */
import type { SessionChunk } from "../trpc/router-types";
import { isRecord } from "../../runtime/is-record";
import type { GraphSessionData, RunEventData } from "./live-graph";

/** One chunk as the chunk list shows it: a `sessions.chunks` item (the event carries the chunk as stored). */
export type LiveChunk = SessionChunk;

/**
 * A session's chunks `from` .. `from + length - 1`, in index order, with no gap. Tails of one session share their
 * array, which only grows at the end: a tail reads its first `length` items, so an older tail still reads as it was
 * (appending is O(1), not a copy per chunk).
 */
export interface LiveTail {
  from: number;
  length: number;
  chunks: readonly LiveChunk[];
}

/** The live tails by session id. */
export type LiveChunks = ReadonlyMap<string, LiveTail>;

/** Most chunks one session's tail keeps (then its newest half is kept). */
export const MAX_TAIL_CHUNKS = 256;
/** Most sessions with a tail (the one grown least recently is dropped first). */
export const MAX_TAIL_SESSIONS = 32;

/** No chunk seen yet. */
export const NO_LIVE_CHUNKS: LiveChunks = new Map();

/** The tails after `events`: a chunk extends its session's tail; one after a gap starts the tail again there. */
export function addLiveChunks(live: LiveChunks, events: readonly RunEventData[]): LiveChunks {
  let next: Map<string, LiveTail> | null = null;
  for (const event of events) {
    if (event.type !== "chunk.appended") continue;
    const { session_id: sessionId, index, chunk } = event.payload;
    if (typeof sessionId !== "string" || typeof index !== "number" || !Number.isInteger(index) || index < 0 || !isRecord(chunk)) continue;
    const tail = (next ?? live).get(sessionId);
    const end = tail === undefined ? -1 : tail.from + tail.length;
    if (tail !== undefined && index >= tail.from && index < end) continue;
    const item: LiveChunk = { sessionId, index, chunk: chunk as LiveChunk["chunk"] };
    next ??= new Map(live);
    // Deleted and set again: the map's order is the order the tails last grew in (oldest first).
    next.delete(sessionId);
    if (tail !== undefined && index === end && tail.length >= MAX_TAIL_CHUNKS) {
      const kept = tail.chunks.slice(tail.length - MAX_TAIL_CHUNKS / 2, tail.length);
      kept.push(item);
      next.set(sessionId, { from: end - MAX_TAIL_CHUNKS / 2, length: kept.length, chunks: kept });
    } else if (tail !== undefined && index === end) {
      // Another tail grew this array already (a branch of older state): it is copied instead of shared.
      const chunks = (tail.chunks.length === tail.length ? tail.chunks : tail.chunks.slice(0, tail.length)) as LiveChunk[];
      chunks.push(item);
      next.set(sessionId, { from: tail.from, length: tail.length + 1, chunks });
    } else {
      next.set(sessionId, { from: index, length: 1, chunks: [item] });
    }
    if (next.size > MAX_TAIL_SESSIONS) next.delete(next.keys().next().value as string);
  }
  return next ?? live;
}

/** The chunk at `index` if the session's live tail holds it. */
export function liveChunkAt(tail: LiveTail | undefined, index: number): LiveChunk | undefined {
  if (tail === undefined || index < tail.from || index >= tail.from + tail.length) return undefined;
  return tail.chunks[index - tail.from];
}

/**
 * Lineage kinds whose first parent's chunks are all its own first chunks (the same chunks, then its own): an agent
 * loop (`Session.derive` from its input's chunks; its second parent is the agent's own session). Not a fork (an
 * edited fork is announced with all its chunks, edited ones included), a merge (its second parent's chunks follow a
 * part of its first's) or a compressed session (its first chunks are new).
 */
const EXTENDS_FIRST_PARENT: ReadonlySet<string> = new Set(["op_session_loop"]);

/** A parent's live chunk as a chunk of `sessionId`, the same object each time (the list's rows are memoised). */
const asChild = new WeakMap<LiveChunk, Map<string, LiveChunk>>();
function asChunkOf(chunk: LiveChunk, sessionId: string): LiveChunk {
  let bySession = asChild.get(chunk);
  if (bySession === undefined) {
    bySession = new Map();
    asChild.set(chunk, bySession);
  }
  let view = bySession.get(sessionId);
  if (view === undefined) {
    view = { ...chunk, sessionId };
    bySession.set(sessionId, view);
  }
  return view;
}

/**
 * The chunk at `index` of session `sessionId` from the live tails: its own tail's, else, for a chunk it inherited
 * from its first parent (an agent loop's input), the parent's (and so on up), shown as the session's own chunk
 * like `sessions.chunks` returns it. A new session of a live run then shows the end of what it inherited without
 * reading it again: the stream carried those chunks with the parent a moment before.
 */
export function liveChunkOf(live: LiveChunks, sessions: ReadonlyMap<string, Pick<GraphSessionData, "lineage" | "inheritedChunkCount">>, sessionId: string, index: number): LiveChunk | undefined {
  let id = sessionId;
  const seen = new Set<string>();
  while (!seen.has(id)) {
    seen.add(id);
    const found = liveChunkAt(live.get(id), index);
    if (found !== undefined) return id === sessionId ? found : asChunkOf(found, sessionId);
    const session = sessions.get(id);
    const parents = session?.lineage.parent_session_ids ?? [];
    // The first parent's tail only holds indices below its chunk count, all of which this session took from it.
    if (session === undefined || index >= session.inheritedChunkCount || parents.length === 0 || !EXTENDS_FIRST_PARENT.has(session.lineage.lineage_kind)) return undefined;
    id = parents[0] as string;
  }
  return undefined;
}
