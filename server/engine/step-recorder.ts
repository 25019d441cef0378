/**
 * Records what one step attempt produced, from the runtime's events and the sessions it announced: the new
 * sessions with all their chunks, chunks appended to sessions stored by earlier steps, the run events to store
 * (every runtime event except streaming deltas), and the tokens the models reported.
 */
import type { RuntimeEvent } from "../../runtime/events";
import type { Chunk } from "../../runtime/session/chunk";
import type { Session, SessionSnapshot } from "../../runtime/session/session";
import { addUsage } from "../../runtime/session/usage";
import { inheritedChunkCount, ownUsageOfChunks } from "../../runtime/session/usage-rollup";
import type { ChunkInput, SessionBase, SessionInput } from "../db/session-record";
import type { RunEventInput } from "../db/run-events";
import { sharedPrefixLength } from "../db/shared-prefix";

/** Runtime event types that are not stored (they stream to live listeners only). */
export const UNSTORED_EVENT_TYPES: ReadonlySet<string> = new Set(["model.delta"]);

interface RecordedSession {
  snapshot: SessionSnapshot;
  chunks: Map<number, Chunk>;
}

/** A session stored by an earlier step that a new session may share chunks with: its chunks and stored count. */
export interface StoredChunks {
  chunks: Iterable<Chunk>;
  storedCount: number;
}

/** What a step writes with its commit, split into rows for new sessions and chunks for stored ones. */
export interface RecordedStep {
  sessions: SessionInput[];
  chunks: ChunkInput[];
  events: RunEventInput[];
  tokensUsed: number;
}

/** Collects one attempt's sessions, chunks, events and token usage. */
export class StepRecorder {
  private readonly sessions = new Map<string, RecordedSession>();
  private readonly appended = new Map<string, Map<number, Chunk>>();
  private readonly events: RunEventInput[] = [];
  /** Chunk counts sessions were announced with (`session.created`): the chunks they took from their parents. */
  private readonly createdCounts = new Map<string, number>();
  private tokens = 0;

  constructor(private readonly nodeId: string) {}

  /** Receives an announced session (through the runtime's session observer). */
  readonly observe = (session: Session): void => {
    if (this.sessions.has(session.id)) return;
    const snapshot = session.toSnapshot();
    const chunks = new Map<number, Chunk>();
    snapshot.chunks.forEach((chunk, index) => chunks.set(index, chunk));
    this.sessions.set(session.id, { snapshot, chunks });
  };

  /** Receives a runtime event. */
  readonly emit = (event: RuntimeEvent): void => {
    if (event.type === "chunk.appended") {
      const target = this.sessions.get(event.session_id)?.chunks ?? this.appendedTo(event.session_id);
      target.set(event.index, event.chunk);
    }
    if (event.type === "model.response.completed") this.tokens += event.usage?.total_tokens ?? 0;
    if (event.type === "session.created" && !this.createdCounts.has(event.session_id)) this.createdCounts.set(event.session_id, event.chunk_count);
    if (UNSTORED_EVENT_TYPES.has(event.type)) return;
    const { type, ...payload } = event;
    // The producing canvas node rides along with a new session, so a live graph can label it without a read.
    this.events.push({ type, payload: type === "session.created" ? { ...payload, node_id: this.nodeId } : payload });
  };

  /** Adds an engine event after the runtime's. */
  addEvent(event: RunEventInput): void {
    this.events.push(event);
  }

  /** Tokens reported by model responses so far. */
  get tokensUsed(): number {
    return this.tokens;
  }

  private appendedTo(sessionId: string): Map<number, Chunk> {
    let chunks = this.appended.get(sessionId);
    if (!chunks) {
      chunks = new Map();
      this.appended.set(sessionId, chunks);
    }
    return chunks;
  }

  /**
   * The rows to commit. `outputs` are the step's final sessions (their snapshots win over what was announced);
   * `stored` maps ids of sessions already in the database to their stored chunk count, so only their new chunks
   * are written. A new session whose first chunks are a parent's (the same chunk objects: a fork, a merge's left
   * side, an agent's loop over its input) is stored with that parent as its `base` and only its own chunks;
   * `storedParent` gives the chunks of parents stored by earlier steps.
   */
  toCommit(
    outputs: readonly Session[],
    stored: ReadonlyMap<string, number>,
    storedParent: (sessionId: string) => StoredChunks | undefined = () => undefined,
  ): RecordedStep {
    for (const output of outputs) {
      const snapshot = output.toSnapshot();
      const recorded = this.sessions.get(output.id);
      if (recorded) {
        recorded.snapshot = snapshot;
        snapshot.chunks.forEach((chunk, index) => recorded.chunks.set(index, chunk));
      } else if (stored.has(output.id)) {
        const chunks = this.appendedTo(output.id);
        snapshot.chunks.forEach((chunk, index) => chunks.set(index, chunk));
      } else {
        // An output nobody announced is still stored: the checkpoint refers to it.
        this.observe(output);
      }
    }
    const sessions: SessionInput[] = [];
    const chunks: ChunkInput[] = [];
    /** Chunks of the sessions this commit stores, for the sessions after them to share. */
    const committed = new Map<string, Chunk[]>();
    for (const [id, recorded] of this.sessions) {
      if (stored.has(id)) {
        const from = stored.get(id) ?? 0;
        for (const [index, chunk] of sortedEntries(recorded.chunks)) if (index >= from) chunks.push({ sessionId: id, index, chunk });
        continue;
      }
      const ordered = sortedEntries(recorded.chunks);
      const { snapshot } = recorded;
      let usage = snapshot.usage;
      for (const [index, chunk] of ordered) if (index >= snapshot.chunks.length) usage = addUsage(usage, chunk.meta.usage);
      const contiguous = ordered.every(([index], position) => index === position);
      const list = ordered.map(([, chunk]) => chunk);
      const base = contiguous ? chooseBase(snapshot.lineage.parent_session_ids, list, committed, storedParent) : null;
      const inherited = this.inheritedCount(snapshot, list, committed, storedParent);
      sessions.push({
        id,
        nodeId: this.nodeId,
        lineage: snapshot.lineage,
        placement: snapshot.placement,
        usage,
        ownUsage: ownUsageOfChunks(list, inherited),
        chunkCount: ordered.length,
        inheritedChunkCount: inherited,
        base,
      });
      const ownFrom = base?.chunkCount ?? 0;
      for (const [index, chunk] of ordered) if (index >= ownFrom) chunks.push({ sessionId: id, index, chunk });
      if (contiguous) committed.set(id, list);
    }
    for (const [id, appended] of this.appended) {
      if (this.sessions.has(id)) continue;
      const from = stored.get(id) ?? 0;
      for (const [index, chunk] of sortedEntries(appended)) if (index >= from) chunks.push({ sessionId: id, index, chunk });
    }
    return { sessions, chunks, events: [...this.events], tokensUsed: this.tokens };
  }

  /**
   * How many chunks a new session took from its parents: the count it was announced with (`session.created`),
   * except that a root session (`Session.create`, no parents) took none; a session nobody announced is matched
   * against its parents' chunks (the same objects).
   */
  private inheritedCount(
    snapshot: SessionSnapshot,
    chunks: readonly Chunk[],
    committed: ReadonlyMap<string, readonly Chunk[]>,
    storedParent: (sessionId: string) => StoredChunks | undefined,
  ): number {
    const parents = snapshot.lineage.parent_session_ids;
    const announced = this.createdCounts.get(snapshot.id);
    if (parents.length === 0 && snapshot.lineage.lineage_kind !== "op_detach") return 0;
    if (announced !== undefined) return Math.min(announced, chunks.length);
    const parentChunks = parents.map((parentId) => {
      const inCommit = committed.get(parentId);
      if (inCommit !== undefined) return inCommit;
      const stored = storedParent(parentId);
      return stored === undefined ? undefined : [...stored.chunks];
    });
    return inheritedChunkCount(chunks, parentChunks);
  }

  /** Ids of every session this attempt announced or appended to. */
  sessionIds(): string[] {
    return [...new Set([...this.sessions.keys(), ...this.appended.keys()])];
  }
}

/** The parent the session shares the longest chunk prefix with (stored earlier or earlier in this commit), or null. */
function chooseBase(
  parents: readonly string[],
  chunks: readonly Chunk[],
  committed: ReadonlyMap<string, readonly Chunk[]>,
  storedParent: (sessionId: string) => StoredChunks | undefined,
): SessionBase | null {
  let best: SessionBase | null = null;
  for (const parentId of parents) {
    const inCommit = committed.get(parentId);
    const earlier = inCommit === undefined ? storedParent(parentId) : undefined;
    const parentChunks = inCommit ?? earlier?.chunks;
    if (parentChunks === undefined) continue;
    const shared = sharedPrefixLength(chunks, parentChunks, inCommit?.length ?? earlier?.storedCount ?? 0);
    if (shared > 0 && shared > (best?.chunkCount ?? 0)) best = { sessionId: parentId, chunkCount: shared };
  }
  return best;
}

/** The chunks by index, ascending (recorded in that order as a rule: then no sort is needed). */
function sortedEntries(chunks: Map<number, Chunk>): Array<[number, Chunk]> {
  const entries = [...chunks.entries()];
  for (let index = 1; index < entries.length; index += 1) {
    if ((entries[index - 1] as [number, Chunk])[0] > (entries[index] as [number, Chunk])[0]) return entries.sort(([left], [right]) => left - right);
  }
  return entries;
}
