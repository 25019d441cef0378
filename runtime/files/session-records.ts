import type { Session } from "../session/session";
import type { Usage } from "../session/usage";
import { RATH_SCHEMA_VERSION, type Dialect } from "./records";
import { stripSecretExtras, stripSecretPlacement } from "./secrets";

/** What the header of a new persisted-session file is built from. */
export interface HeaderOptions {
  dialect: Dialect;
  createdAt: string;
  /** Chunks written together with the header (dialect 2 records that the header's usage covers them). */
  chunksAtOpen: number;
  /** Overrides the bound handle's id (e.g. when re-writing a loaded, unbound session). */
  sandboxHandleId?: string | null | undefined;
}

/**
 * The header record of a session, in field order of the reference. Secret-named env variables and extras are
 * left out. Dialect 2 adds `usage`, `usage_through_chunk`, `pending` and `provider`.
 */
export function buildHeader(session: Session, options: HeaderOptions): Record<string, unknown> {
  const placement = stripSecretPlacement(session.placement);
  const header: Record<string, unknown> = {
    record_type: "header",
    schema_version: options.dialect,
    id: session.id,
    created_at: options.createdAt,
    parent_session_ids: [...session.lineage.parent_session_ids],
    lineage_operator: session.lineage.lineage_operator,
    lineage_kind: session.lineage.lineage_kind,
    lineage_extras: stripSecretExtras(session.lineage.lineage_extras),
    sandbox_backend: placement.backend,
    sandbox_spec: placement.spec,
    sandbox_handle_id: options.sandboxHandleId !== undefined ? options.sandboxHandleId : (session.handle?.id ?? null),
  };
  if (options.dialect === RATH_SCHEMA_VERSION) {
    header.usage = session.usage;
    header.usage_through_chunk = options.chunksAtOpen;
    header.pending = [...session.pending];
    header.provider = session.provider;
  }
  return header;
}

/** The trailer record written on a clean close. */
export function buildTrailer(closedAt: string, finalChunkCount: number, usage: Usage | null): Record<string, unknown> {
  return { record_type: "trailer", closed_at: closedAt, final_chunk_count: finalChunkCount, cumulative_usage: usage };
}
