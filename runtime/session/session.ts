import { z } from "zod";
import { RathError } from "../errors";
import { newSessionId, SessionId } from "../ids";
import { DEFAULT_PLACEMENT, Placement, type SandboxHandle } from "../sandbox/handle";
import { Chunk, makeChunk } from "./chunk";
import { ChunkList } from "./chunk-list";
import { Lineage, type LineageExtras, type LineageKind } from "./lineage";
import { IDS_PLAIN, isPlainId, lineFacts, OWN_ID_PLAIN, PAIR_SHIFT, pairNumber } from "./line-facts";
import { addUsage, Usage } from "./usage";

/** The plain, serialisable form of a Session (files, database rows, the browser). */
export const SessionSnapshot = z.object({
  id: z.string().min(1),
  chunks: z.array(Chunk),
  placement: Placement,
  sandbox_handle_id: z.string().nullable(),
  lineage: Lineage,
  usage: Usage.nullable(),
  pending: z.array(z.string()),
  provider: z.string().nullable(),
});
export type SessionSnapshot = z.infer<typeof SessionSnapshot>;

interface SessionFields {
  id: SessionId;
  chunks: ChunkList<Chunk>;
  placement: Placement;
  handle: SandboxHandle | null;
  /** Built by `frozenLineage` (shared as it is). */
  lineage: Readonly<Lineage>;
  usage: Usage | null;
  pending: readonly string[];
  provider: string | null;
  /** The line facts of `id` and `lineage` (line-facts.ts). */
  facts: number;
}

/** Options for a Session derived by an operator (agent loop, compression, ...). */
export interface DeriveOptions {
  chunks: ChunkList<Chunk> | readonly Chunk[];
  parents: readonly string[];
  kind: LineageKind;
  operator: string;
  extras?: LineageExtras;
  /** Placement and sandbox come from this session (its handle is retained). */
  placementFrom?: Session;
  usage?: Usage | null;
  provider?: string | null;
}

const NO_PENDING: readonly string[] = Object.freeze([]);

/** The value itself when already frozen (shared safely), else a frozen copy. */
function frozenCopy<T extends object>(value: T, copy: (value: T) => T): T {
  return Object.isFrozen(value) ? value : Object.freeze(copy(value));
}

/**
 * A shallow copy of a plain object, for `frozenCopy`. Not `{ ...value }`: V8 (Node 20) gives a frozen spread copy
 * a hidden class of its own, so every session's usage had its own (6,590 classes for the 6,598 usages of the
 * lineage bench graph), and each read of a usage field was a megamorphic lookup and a cache miss on that class.
 * `Object.assign` onto `{}` copies the same own properties in the same order into objects that share one class;
 * an own `__proto__` key (JSON.parse makes them) would go to the setter there, so such an object is spread.
 */
function plainCopy<T extends object>(value: T): T {
  return Object.hasOwn(value, "__proto__") ? { ...value } : Object.assign({}, value);
}

function freezeChunk(chunk: Chunk): Chunk {
  Object.freeze(chunk.payload);
  Object.freeze(chunk.meta);
  return Object.freeze(chunk);
}

function toList(chunks: ChunkList<Chunk> | readonly Chunk[]): ChunkList<Chunk> {
  return chunks instanceof ChunkList ? chunks : ChunkList.from(chunks.map(freezeChunk));
}

/**
 * A Session's lineage: always one literal in one key order, so every Session's lineage shares a hidden class,
 * which keeps readers over many sessions (lineage export, graph helpers) monomorphic and fast. Frozen parts
 * are shared as they are; others are copied once.
 */
function frozenLineage(lineage: Readonly<Lineage>): Readonly<Lineage> {
  return Object.freeze({
    parent_session_ids: frozenCopy(lineage.parent_session_ids, (ids) => [...ids]),
    lineage_operator: lineage.lineage_operator,
    lineage_kind: lineage.lineage_kind,
    lineage_extras: frozenCopy(lineage.lineage_extras, (extras) => extras.map((pair) => Object.freeze([...pair]) as [string, unknown])),
  });
}

const NO_EXTRAS: LineageExtras = Object.freeze([]) as unknown as LineageExtras;

/** Every detached session has the same lineage: no parents, `op_detach`. */
const DETACH_LINEAGE = frozenLineage({ parent_session_ids: [], lineage_operator: "Session.detach", lineage_kind: "op_detach", lineage_extras: NO_EXTRAS });

/**
 * The lineage of a fork of a session (parents `[id]`, `op_fork`) is the same value for every fork of it, so
 * forks share it: a fork then costs its own object and id only (1,000 forks of one session hold one lineage).
 */
const forkLineages = new WeakMap<Session, Readonly<Lineage>>();

function forkLineageOf(parent: Session): Readonly<Lineage> {
  let lineage = forkLineages.get(parent);
  if (lineage === undefined) {
    lineage = frozenLineage({ parent_session_ids: [parent.id], lineage_operator: "Session.fork", lineage_kind: "op_fork", lineage_extras: NO_EXTRAS });
    forkLineages.set(parent, lineage);
  }
  return lineage;
}

/** The facts of a line of a new session (its id made by newSessionId) with no parents and this lineage pair. */
function rootFacts(operator: string, kind: string): number {
  return IDS_PLAIN | (pairNumber(operator, kind) << PAIR_SHIFT);
}

const FORK_FACTS = rootFacts("Session.fork", "op_fork") & ~IDS_PLAIN;
const DETACH_FACTS = rootFacts(DETACH_LINEAGE.lineage_operator, DETACH_LINEAGE.lineage_kind);
const MERGE_FACTS = rootFacts("Session.merge", "op_merge") & ~IDS_PLAIN;

/** The facts of a new session (id from newSessionId) whose parents are sessions with facts `parentsFacts` (ANDed when two). */
function withParentsOf(facts: number, parentsFacts: number): number {
  return facts | OWN_ID_PLAIN | ((parentsFacts & OWN_ID_PLAIN) << 1);
}

/**
 * The value that flows through agents and workflows. Immutable: every operation returns a new Session.
 * An id names a session; values with the same id are snapshots of it, and later snapshots only extend
 * earlier ones (chunks are append-only). Chunks are structurally shared, so fork is O(1) and merge O(log n).
 */
export class Session {
  readonly id: SessionId;
  readonly chunks: ChunkList<Chunk>;
  readonly placement: Placement;
  /** The bound sandbox (shared with forks), or null while unbound. */
  readonly handle: SandboxHandle | null;
  readonly lineage: Readonly<Lineage>;
  /** Cumulative usage, or null when no provider reported any. */
  readonly usage: Usage | null;
  /** Work scheduled but not done for this session (in the durable runtime: the next nodes). */
  readonly pending: readonly string[];
  /** Name of the provider this session is bound to, if any. */
  readonly provider: string | null;
  /** What the lineage export knows of this session's line without re-deriving it (line-facts.ts). */
  readonly #facts: number;
  /** `chunks.length`, kept here so a reader over many sessions (the lineage export) does not visit the chunk list. */
  readonly #chunkCount: number;

  private constructor(fields: SessionFields) {
    this.id = fields.id;
    this.chunks = fields.chunks;
    // Frozen parts are shared as they are (a fork reuses its parent's placement); others are copied once.
    this.placement = frozenCopy(fields.placement, plainCopy);
    this.handle = fields.handle;
    this.lineage = fields.lineage;
    this.usage = fields.usage ? frozenCopy(fields.usage, plainCopy) : null;
    this.pending = fields.pending.length === 0 ? NO_PENDING : frozenCopy(fields.pending, (value) => [...value]);
    this.provider = fields.provider;
    this.#facts = fields.facts;
    this.#chunkCount = fields.chunks.length;
    Object.freeze(this);
  }

  /** The line facts of a Session (line-facts.ts); 0 (nothing known) for anything else, such as a snapshot. */
  static lineFacts(source: object): number {
    return #facts in source ? source.#facts : 0;
  }

  /** `source.chunks.length`, read from the Session itself when it is one (no visit to its chunk list). */
  static chunkCount(source: { readonly chunks: { readonly length: number } }): number {
    return #chunkCount in source ? source.#chunkCount : source.chunks.length;
  }

  /**
   * A new root session holding one `user` or `system` chunk, or none for `"empty"`.
   * Any other kind is an error that says "unknown kind".
   */
  static create(kind: "user" | "system" | "empty", text = "", options: { producer?: string } = {}): Session {
    let chunks = ChunkList.empty<Chunk>();
    let lineageKind: LineageKind;
    let operator: string;
    if (kind === "user" || kind === "system") {
      chunks = chunks.append(freezeChunk(makeChunk(kind, { content: text }, { producer: options.producer ?? kind })));
      lineageKind = kind === "user" ? "leaf_user" : "leaf_system";
      operator = "Session.create";
    } else if (kind === "empty") {
      lineageKind = "unknown";
      operator = "implicit";
    } else {
      throw new RathError("unknown_kind", `unknown kind '${String(kind)}' for Session.create; expected user, system or empty`);
    }
    return new Session({
      id: newSessionId(),
      chunks,
      placement: DEFAULT_PLACEMENT,
      handle: null,
      lineage: frozenLineage({
        parent_session_ids: [],
        lineage_operator: operator,
        lineage_kind: lineageKind,
        lineage_extras: [["source", "Session.create"]],
      }),
      usage: null,
      pending: [],
      provider: null,
      facts: rootFacts(operator, lineageKind),
    });
  }

  /** A new session produced by an operator from its parents (agent loop, compression, workflow steps). */
  static derive(options: DeriveOptions): Session {
    const from = options.placementFrom;
    return new Session({
      id: newSessionId(),
      chunks: toList(options.chunks),
      placement: from?.placement ?? DEFAULT_PLACEMENT,
      handle: from?.handle ? from.handle.retain() : null,
      lineage: frozenLineage({
        parent_session_ids: [...options.parents],
        lineage_operator: options.operator,
        lineage_kind: options.kind,
        lineage_extras: options.extras ?? NO_EXTRAS,
      }),
      usage: options.usage ?? null,
      pending: [],
      provider: options.provider ?? from?.provider ?? null,
      facts: lineFacts(true, options.parents, options.operator, options.kind),
    });
  }

  /** Rebuilds a session from its snapshot (files, database). The sandbox is unbound. */
  static fromSnapshot(snapshot: SessionSnapshot): Session {
    const id = SessionId.parse(snapshot.id);
    const lineage = snapshot.lineage;
    return new Session({
      id,
      chunks: toList(snapshot.chunks),
      placement: snapshot.placement,
      handle: null,
      lineage: frozenLineage(snapshot.lineage),
      usage: snapshot.usage,
      pending: snapshot.pending,
      provider: snapshot.provider,
      facts: lineFacts(isPlainId(id), lineage.parent_session_ids, lineage.lineage_operator, lineage.lineage_kind),
    });
  }

  /** The same session (same id) with some fields changed; a new lineage gets its line facts worked out again. */
  private with(changes: Partial<Omit<SessionFields, "id" | "facts">>): Session {
    const lineage = changes.lineage;
    return new Session({
      id: this.id,
      chunks: this.chunks,
      placement: this.placement,
      handle: this.handle,
      lineage: this.lineage,
      usage: this.usage,
      pending: this.pending,
      provider: this.provider,
      ...changes,
      facts:
        lineage === undefined
          ? this.#facts
          : lineFacts((this.#facts & OWN_ID_PLAIN) !== 0, lineage.parent_session_ids, lineage.lineage_operator, lineage.lineage_kind),
    });
  }

  /** Same chunks and placement, shares the sandbox handle; parents `[this.id]`, `op_fork`. Usage is not copied. */
  fork(): Session {
    return this.branch(forkLineageOf(this), withParentsOf(FORK_FACTS, this.#facts));
  }

  /** Like fork, but with no parents: `op_detach`. */
  detach(): Session {
    return this.branch(DETACH_LINEAGE, DETACH_FACTS);
  }

  private branch(lineage: Readonly<Lineage>, facts: number): Session {
    return new Session({
      id: newSessionId(),
      chunks: this.chunks,
      placement: this.placement,
      handle: this.handle ? this.handle.retain() : null,
      lineage,
      usage: null,
      pending: [],
      provider: this.provider,
      facts,
    });
  }

  /**
   * Chunks `this ++ other`, usage summed, keeps this session's placement, sandbox and provider.
   * Refused only when both sessions are unbound and their backends differ.
   */
  merge(other: Session): Session {
    const backends = [this.placement.backend, other.placement.backend];
    // An unplaced session (backend null) merges with any; two placed ones must agree unless one is bound.
    if (!this.handle && !other.handle && backends[0] !== null && backends[1] !== null && backends[0] !== backends[1]) {
      throw new RathError(
        "different_backends",
        `cannot merge sessions on different backends: '${this.placement.backend}' and '${other.placement.backend}' (bind one of them first)`,
      );
    }
    return new Session({
      id: newSessionId(),
      chunks: this.chunks.concat(other.chunks),
      placement: this.placement,
      handle: this.handle ? this.handle.retain() : null,
      lineage: frozenLineage({
        parent_session_ids: [this.id, other.id],
        lineage_operator: "Session.merge",
        lineage_kind: "op_merge",
        lineage_extras: NO_EXTRAS,
      }),
      usage: addUsage(this.usage, other.usage),
      pending: [],
      provider: this.provider,
      facts: withParentsOf(MERGE_FACTS, this.#facts & other.#facts),
    });
  }

  /** A later snapshot of this session with chunks appended; chunk usage is added to the session's usage. */
  append(...chunks: Chunk[]): Session {
    if (chunks.length === 0) return this;
    let usage = this.usage;
    for (const chunk of chunks) usage = addUsage(usage, freezeChunk(chunk).meta.usage);
    return this.with({ chunks: this.chunks.append(...chunks), usage });
  }

  /** A snapshot placed on another sandbox backend (unbound until a tool first needs it). */
  to(backend: string, spec: Partial<Placement["spec"]> & { workingDir?: string } = {}): Session {
    const { workingDir, ...rest } = spec ?? {};
    const merged = {
      image: null,
      entrypoint: null,
      env: {},
      timeout_seconds: null,
      working_dir: null,
      ...rest,
      ...(workingDir !== undefined ? { working_dir: workingDir } : {}),
    };
    return this.with({ placement: { backend, spec: merged }, handle: null });
  }

  /** A snapshot bound to a sandbox handle (the caller hands over one reference). */
  withHandle(handle: SandboxHandle | null): Session {
    return this.with({ handle });
  }

  withPending(pending: readonly string[]): Session {
    return this.with({ pending });
  }

  withProvider(provider: string | null): Session {
    return this.with({ provider });
  }

  /** A snapshot with more lineage extras (e.g. `loop.truncated`). */
  withExtras(extras: LineageExtras): Session {
    return this.with({ lineage: frozenLineage({ ...this.lineage, lineage_extras: [...this.lineage.lineage_extras, ...extras] }) });
  }

  /** The first `count` chunks, as a fork of this session (used by "fork from chunk"). */
  forkAt(count: number): Session {
    const fork = this.fork();
    return fork.with({ chunks: this.chunks.take(count), lineage: frozenLineage({ ...fork.lineage, lineage_extras: [["fork.at_chunk", count]] }) });
  }

  /** Releases this holder's reference to the sandbox handle. */
  async release(): Promise<void> {
    await this.handle?.release();
  }

  toSnapshot(): SessionSnapshot {
    return {
      id: this.id,
      chunks: this.chunks.toArray(),
      placement: this.placement,
      sandbox_handle_id: this.handle?.id ?? null,
      lineage: {
        parent_session_ids: [...this.lineage.parent_session_ids],
        lineage_operator: this.lineage.lineage_operator,
        lineage_kind: this.lineage.lineage_kind,
        lineage_extras: this.lineage.lineage_extras.map(([key, value]) => [key, value] as [string, unknown]),
      },
      usage: this.usage,
      pending: [...this.pending],
      provider: this.provider,
    };
  }

  toJSON(): SessionSnapshot {
    return this.toSnapshot();
  }
}
