import type { Session } from "../session/session";
import type { Usage } from "../session/usage";
import { sessionBodies } from "./dialect";
import { toJsonValue } from "./json-text";
import { jsonLine } from "./jsonl-lines";
import { RATH_SCHEMA_VERSION, REFERENCE_SCHEMA_VERSION, type Dialect } from "./records";
import { pythonIsoTime, referenceTime } from "./reference-time";
import { stripSecretExtras, stripSecretPlacement } from "./secrets";

/** A time for a file of this dialect: the reference's `+00:00` form in dialect 1, `toISOString()` in dialect 2. */
export function fileTime(dialect: Dialect, time: Date | string): string {
  if (dialect === REFERENCE_SCHEMA_VERSION) return typeof time === "string" ? referenceTime(time) : pythonIsoTime(time);
  return typeof time === "string" ? time : time.toISOString();
}

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
 * left out; extras that are not JSON are written as the lineage export writes them (`toJsonValue`: numbers of
 * any size exact, NaN/Infinity as Python writes them, anything else as a string). Dialect 1 writes times as the
 * reference does; dialect 2 adds `usage`, `usage_through_chunk`, `pending` and `provider`.
 */
export function buildHeader(session: Session, options: HeaderOptions): Record<string, unknown> {
  const placement = stripSecretPlacement(session.placement);
  const header: Record<string, unknown> = {
    record_type: "header",
    schema_version: options.dialect,
    id: session.id,
    created_at: fileTime(options.dialect, options.createdAt),
    parent_session_ids: [...session.lineage.parent_session_ids],
    lineage_operator: session.lineage.lineage_operator,
    lineage_kind: session.lineage.lineage_kind,
    lineage_extras: stripSecretExtras(session.lineage.lineage_extras).map(([key, value]) => [key, toJsonValue(value)]),
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

/** The trailer record written on a clean close (`closedAt` already in the dialect's form, see `fileTime`). */
export function buildTrailer(closedAt: string, finalChunkCount: number, usage: Usage | null): Record<string, unknown> {
  return { record_type: "trailer", closed_at: closedAt, final_chunk_count: finalChunkCount, cumulative_usage: usage };
}

/**
 * A whole closed persisted-session file for a session, as one text (exports): header, chunk records
 * (`sessionBodies`: in dialect 1 recalled memory first, as the reference orders it) and trailer.
 */
export function sessionFileText(
  session: Session,
  options: { dialect: Dialect; createdAt: Date | string; closedAt: Date | string; sandboxHandleId?: string | null },
): string {
  const bodies = sessionBodies(session.chunks, options.dialect);
  let text = jsonLine(
    buildHeader(session, {
      dialect: options.dialect,
      createdAt: fileTime(options.dialect, options.createdAt),
      chunksAtOpen: session.chunks.length,
      sandboxHandleId: options.sandboxHandleId,
    }),
  );
  for (let index = 0; index < bodies.length; index++) text += jsonLine({ record_type: "chunk", index, ...bodies[index] });
  return text + jsonLine(buildTrailer(fileTime(options.dialect, options.closedAt), bodies.length, session.usage));
}
