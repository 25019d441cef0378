import { z } from "zod";
import { Usage } from "../session/usage";
import { SandboxSpec } from "../sandbox/handle";
import { ChunkMeta } from "../session/chunk";
import { FileLineageExtras, FileLineageKind } from "./records";

/** Version of the bundle layout (independent of the persisted-session schema version). */
export const BUNDLE_SCHEMA_VERSION = 1;

/** What a bundle says about the run that produced it. */
export const BundleRun = z.object({
  run_id: z.string(),
  workflow: z.string().nullable().default(null),
  /** The workflow's name when the bundle was written (an imported run is titled after it); absent in older bundles. */
  workflow_name: z.string().nullable().default(null),
  revision: z.string().nullable().default(null),
  status: z.string().nullable().default(null),
});
export type BundleRun = z.infer<typeof BundleRun>;

/** First line of a bundle. */
export const BundleRecord = z.object({
  record_type: z.literal("bundle"),
  schema_version: z.number().int().min(1),
  created_at: z.string(),
  run: BundleRun.nullable().default(null),
  session_count: z.number().int().nonnegative(),
  event_count: z.number().int().nonnegative(),
});
export type BundleRecord = z.infer<typeof BundleRecord>;

/** Where a session's first chunks come from: the first `chunk_count` chunks of an earlier session in the bundle. */
export const BundleBase = z.object({ session_id: z.string().min(1), chunk_count: z.number().int().nonnegative() });
export type BundleBase = z.infer<typeof BundleBase>;

/** One session of a bundle, followed by its own chunk lines (those after `base`). */
export const BundleSessionRecord = z.object({
  record_type: z.literal("session"),
  id: z.string().min(1),
  parent_session_ids: z.array(z.string()),
  lineage_operator: z.string(),
  lineage_kind: FileLineageKind,
  lineage_extras: FileLineageExtras,
  sandbox_backend: z.string().nullable(),
  sandbox_spec: SandboxSpec.nullable(),
  sandbox_handle_id: z.string().nullable(),
  usage: Usage.nullable(),
  pending: z.array(z.string()),
  provider: z.string().nullable(),
  chunk_count: z.number().int().nonnegative(),
  base: BundleBase.nullable(),
  annotations: z.record(z.string(), z.unknown()).default({}),
});
export type BundleSessionRecord = z.infer<typeof BundleSessionRecord>;

/** One chunk of the preceding session line; `index` counts from 0 over the session's whole chunk list. */
export const BundleChunkRecord = z.object({
  record_type: z.literal("chunk"),
  index: z.number().int().nonnegative(),
  kind: z.string(),
  payload: z.record(z.string(), z.unknown()),
  meta: ChunkMeta,
});
export type BundleChunkRecord = z.infer<typeof BundleChunkRecord>;

/** One run event (after all sessions), in order. */
export const BundleEventRecord = z.object({
  record_type: z.literal("event"),
  index: z.number().int().nonnegative(),
  event: z.record(z.string(), z.unknown()),
});
export type BundleEventRecord = z.infer<typeof BundleEventRecord>;
