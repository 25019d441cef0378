/**
 * Sessions and chunks as the store writes and returns them. A session row keeps its lineage and placement as
 * JSON; its parents are also rows of session_parents (edge queries). Chunks are stored per session by index.
 */
import { z } from "zod";
import { Placement } from "../../runtime/sandbox/handle";
import { Chunk, ChunkMeta } from "../../runtime/session/chunk";
import { Lineage, LineageExtras, LineageKind } from "../../runtime/session/lineage";
import { Usage } from "../../runtime/session/usage";
import type { Chunk as ChunkRow, Session as SessionRow } from "./generated/sqlite/client";
import { fromJsonText } from "./json-text";

/** Whether the step that produced a session succeeded. */
export const SessionStatus = z.enum(["ok", "failed"]);
export type SessionStatus = z.infer<typeof SessionStatus>;

/** A session to store with a step commit; its parents are `lineage.parent_session_ids`. */
export const SessionInput = z.object({
  id: z.string().min(1),
  nodeId: z.string().min(1).nullable().default(null),
  lineage: Lineage,
  placement: Placement,
  usage: Usage.nullable().default(null),
  chunkCount: z.number().int().nonnegative(),
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
  usage: Usage | null;
  chunkCount: number;
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
      parent_session_ids: fromJsonText(row.parents, z.array(z.string()), `parents of ${what}`),
      lineage_operator: row.lineageOperator,
      lineage_kind: LineageKind.parse(row.lineageKind),
      lineage_extras: fromJsonText(row.lineageExtras, LineageExtras, `lineage extras of ${what}`),
    },
    placement: fromJsonText(row.placement, Placement, `placement of ${what}`),
    usage: row.usage === null ? null : fromJsonText(row.usage, Usage, `usage of ${what}`),
    chunkCount: row.chunkCount,
    status: SessionStatus.parse(row.status),
    error: row.error,
    createdAt: row.createdAt,
  };
}

/** Maps a `chunks` row to a ChunkRecord (the chunk is re-validated with the runtime's schema). */
export function toChunkRecord(row: ChunkRow): ChunkRecord {
  const what = `chunk ${row.sessionId}#${row.index}`;
  const chunk = Chunk.parse({
    kind: row.kind,
    payload: fromJsonText(row.payload, z.unknown(), `payload of ${what}`),
    meta: fromJsonText(row.meta, ChunkMeta, `meta of ${what}`),
  });
  return { sessionId: row.sessionId, index: row.index, chunk };
}
