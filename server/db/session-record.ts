/**
 * Sessions and chunks as the store writes and returns them. A session row keeps its lineage and placement as
 * JSON; a parent of another run is also a row of session_parents (session-parent-rows.ts). Chunks are stored per
 * session by index.
 */
import { z } from "zod";
import { Placement } from "../../runtime/sandbox/handle";
import { Chunk, ChunkMeta } from "../../runtime/session/chunk";
import { Lineage, LineageExtras, LineageKind } from "../../runtime/session/lineage";
import { Usage } from "../../runtime/session/usage";
import type { Chunk as ChunkRow, Session as SessionRow } from "./generated/sqlite/client";
import { AnyJson, fromJsonText, StringList } from "./json-text";

/** Whether the step that produced a session succeeded. */
export const SessionStatus = z.enum(["ok", "failed"]);
export type SessionStatus = z.infer<typeof SessionStatus>;

/**
 * Structural sharing: the session's first `chunkCount` chunks are the first `chunkCount` chunks of the stored
 * session `sessionId`, so only the chunks after them are stored for this session.
 */
export const SessionBase = z.object({ sessionId: z.string().min(1), chunkCount: z.number().int().positive() });
export type SessionBase = z.infer<typeof SessionBase>;

/**
 * A session to store with a step commit; its parents are `lineage.parent_session_ids`. With a `base`, its chunks
 * from index `base.chunkCount` on are committed with it (the earlier ones are the base's).
 */
export const SessionInput = z.object({
  id: z.string().min(1),
  nodeId: z.string().min(1).nullable().default(null),
  lineage: Lineage,
  placement: Placement,
  /** The runtime's usage of the session value (reference semantics: a merge sums its parents'). */
  usage: Usage.nullable().default(null),
  /** Usage of the chunks the session added itself (runtime/session/usage-rollup.ts). */
  ownUsage: Usage.nullable().default(null),
  chunkCount: z.number().int().nonnegative(),
  /** How many chunks the session took from its parents when it was created (its own come after them). */
  inheritedChunkCount: z.number().int().nonnegative().default(0),
  base: SessionBase.nullable().default(null),
  status: SessionStatus.default("ok"),
  error: z.string().nullable().default(null),
});
export type SessionInput = z.input<typeof SessionInput>;

/** A chunk to store with a step commit: which session, at which index. */
export const ChunkInput = z.object({
  sessionId: z.string().min(1),
  index: z.number().int().nonnegative(),
  chunk: Chunk,
});
export type ChunkInput = z.input<typeof ChunkInput>;

/** A stored session. */
export interface SessionRecord {
  id: string;
  runId: string;
  nodeId: string | null;
  lineage: Lineage;
  placement: Placement;
  /** The runtime's usage of the session value (reference semantics: a merge sums its parents'). */
  usage: Usage | null;
  /** Usage of the chunks the session added itself; see runtime/session/usage-rollup.ts. */
  ownUsage: Usage | null;
  chunkCount: number;
  /** How many chunks the session took from its parents when it was created (its own chunks come after them). */
  inheritedChunkCount: number;
  /** The run event seq at which the session was created (creation order within its run; 0 for older rows). */
  createdSeq: number;
  /** The stored session whose first chunks this one shares (resolved when reading chunks), or null. */
  base: SessionBase | null;
  status: SessionStatus;
  error: string | null;
  createdAt: Date;
}

/** A stored chunk with its index in the session. */
export interface ChunkRecord {
  sessionId: string;
  index: number;
  chunk: Chunk;
}

/** Maps a `sessions` row to a SessionRecord. */
export function toSessionRecord(row: SessionRow): SessionRecord {
  const what = `session ${row.id}`;
  return {
    id: row.id,
    runId: row.runId,
    nodeId: row.nodeId,
    lineage: {
      parent_session_ids: fromJsonText(row.parents, StringList, `parents of ${what}`),
      lineage_operator: row.lineageOperator,
      lineage_kind: LineageKind.parse(row.lineageKind),
      lineage_extras: fromJsonText(row.lineageExtras, LineageExtras, `lineage extras of ${what}`),
    },
    placement: fromJsonText(row.placement, Placement, `placement of ${what}`),
    usage: row.usage === null ? null : fromJsonText(row.usage, Usage, `usage of ${what}`),
    ownUsage: row.ownUsage === null ? null : fromJsonText(row.ownUsage, Usage, `own usage of ${what}`),
    chunkCount: row.chunkCount,
    inheritedChunkCount: row.inheritedChunkCount,
    createdSeq: row.createdSeq,
    base: row.baseSessionId === null ? null : { sessionId: row.baseSessionId, chunkCount: row.baseChunkCount },
    status: SessionStatus.parse(row.status),
    error: row.error,
    createdAt: row.createdAt,
  };
}

/**
 * Maps a `chunks` row to a ChunkRecord of `sessionId` (the session that was read, which may share the row through
 * its base; default the row's own session). The chunk is re-validated with the runtime's schema.
 */
export function toChunkRecord(row: Pick<ChunkRow, "sessionId" | "index" | "kind" | "payload" | "meta">, sessionId: string = row.sessionId): ChunkRecord {
  const what = `chunk ${row.sessionId}#${row.index}`;
  const chunk = Chunk.parse({
    kind: row.kind,
    payload: fromJsonText(row.payload, AnyJson, `payload of ${what}`),
    meta: fromJsonText(row.meta, ChunkMeta, `meta of ${what}`),
  });
  return { sessionId, index: row.index, chunk };
}
