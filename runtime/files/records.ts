import { z } from "zod";
import { ChunkMeta, MemoryPayload, RoutePayload, AssistantPayload, TextPayload, ToolResultPayload } from "../session/chunk";
import { LineageExtras, LineageKind, LINEAGE_KINDS } from "../session/lineage";
import { Usage } from "../session/usage";
import { SandboxSpec } from "../sandbox/handle";

/** Schema version of the strict reference dialect (the four reference chunk kinds, no metadata). */
export const REFERENCE_SCHEMA_VERSION = 1;
/** Schema version of Rath's own dialect (memory and route kinds, chunk `meta`, extra header fields). */
export const RATH_SCHEMA_VERSION = 2;
/** Newest persisted-session schema version this code reads. */
export const LATEST_SCHEMA_VERSION = RATH_SCHEMA_VERSION;

/** Which dialect a persisted-session file is written in: 1 = reference, 2 = Rath. */
export const Dialect = z.union([z.literal(REFERENCE_SCHEMA_VERSION), z.literal(RATH_SCHEMA_VERSION)]);
export type Dialect = z.infer<typeof Dialect>;

const knownKinds: ReadonlySet<string> = new Set(LINEAGE_KINDS);

/** A lineage kind as files carry it; kinds this version does not know read as `unknown` (as the reference does). */
export const FileLineageKind = z
  .string()
  .transform((value): LineageKind => (knownKinds.has(value) ? (value as LineageKind) : "unknown"));

/** Lineage extras as files carry them: `[key, value]` pairs, or an object (read as its entries). */
export const FileLineageExtras = z
  .union([LineageExtras, z.record(z.string(), z.unknown())])
  .transform((value): LineageExtras => (Array.isArray(value) ? value : Object.entries(value)));

/** The first record of a persisted-session file; dialect 2 adds `usage`, `usage_through_chunk`, `pending`, `provider`. */
export const HeaderRecord = z.object({
  record_type: z.literal("header"),
  schema_version: z.number().int().min(1),
  id: z.string().min(1),
  created_at: z.string().min(1),
  parent_session_ids: z.array(z.string()).default([]),
  lineage_operator: z.string().default("implicit"),
  lineage_kind: FileLineageKind.default("unknown"),
  lineage_extras: FileLineageExtras.default([]),
  sandbox_backend: z.string().nullable().default(null),
  sandbox_spec: SandboxSpec.nullable().default(null),
  sandbox_handle_id: z.string().nullable().default(null),
  /** Dialect 2: the session's cumulative usage when the header was written. */
  usage: Usage.nullable().optional(),
  /** Dialect 2: how many chunks `usage` already covers (the chunks written together with the header). */
  usage_through_chunk: z.number().int().nonnegative().optional(),
  pending: z.array(z.string()).optional(),
  provider: z.string().nullable().optional(),
});
export type HeaderRecord = z.infer<typeof HeaderRecord>;

/** The kinds a chunk record may have in the reference dialect. */
export const ReferenceChunkKind = z.enum(["system", "user", "assistant", "tool_result"]);
/** The kinds a chunk record may have in the Rath dialect. */
export const RathChunkKind = z.enum(["system", "user", "assistant", "tool_result", "memory", "route"]);

/** Payload schema for each chunk kind. */
export const PAYLOAD_BY_KIND = {
  system: TextPayload,
  user: TextPayload,
  assistant: AssistantPayload,
  tool_result: ToolResultPayload,
  memory: MemoryPayload,
  route: RoutePayload,
} as const;

/** One chunk of a persisted session; `meta` only in dialect 2 (ignored in dialect 1). */
export const ChunkRecord = z.object({
  record_type: z.literal("chunk"),
  index: z.number().int().nonnegative(),
  kind: z.string(),
  payload: z.record(z.string(), z.unknown()),
  meta: ChunkMeta.optional(),
});
export type ChunkRecord = z.infer<typeof ChunkRecord>;

/** The last record of a cleanly closed persisted session. */
export const TrailerRecord = z.object({
  record_type: z.literal("trailer"),
  closed_at: z.string().min(1),
  final_chunk_count: z.number().int().nonnegative(),
  cumulative_usage: Usage.nullable().default(null),
});
export type TrailerRecord = z.infer<typeof TrailerRecord>;

/** One line of a lineage export. */
export const LineageRecord = z.object({
  id: z.string().min(1),
  parent_session_ids: z.array(z.string()),
  lineage_operator: z.string(),
  lineage_kind: FileLineageKind,
  lineage_extras: FileLineageExtras,
  chunk_count: z.number().int().nonnegative(),
  cumulative_usage: Usage.nullable(),
});
export type LineageRecord = z.infer<typeof LineageRecord>;
