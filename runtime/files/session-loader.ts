import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { RathError } from "../errors";
import type { Chunk } from "../session/chunk";
import { Session } from "../session/session";
import { addUsage, type Usage } from "../session/usage";
import { chunkFromRecord } from "./dialect";
import { completeLines, invalidLine, parseJsonObject, parseRecord } from "./jsonl-lines";
import { ChunkRecord, HeaderRecord, LATEST_SCHEMA_VERSION, RATH_SCHEMA_VERSION, TrailerRecord } from "./records";

/** Suffix of a closed persisted-session file. */
export const SESSION_FILE_SUFFIX = ".jsonl";
/** Suffix of a persisted-session file that is being written, or whose writer crashed. */
export const PARTIAL_SUFFIX = ".__partial__";

/** Facts about a persisted-session file that are not part of the Session value. */
export interface SessionFileFacts {
  file: string;
  /** True when the file ends with a trailer (the session was closed cleanly); false means crashed or incomplete. */
  closed: boolean;
  schema_version: number;
  created_at: string;
  closed_at: string | null;
  final_chunk_count: number | null;
  /** The trailer's cumulative usage (null when not closed or when no provider reported any). */
  cumulative_usage: Usage | null;
  /** True when the writer's last line was cut off (and dropped). */
  dropped_last_line: boolean;
  /** The sandbox handle the session was bound to when written (the loaded Session is unbound). */
  sandbox_handle_id: string | null;
}

/** A loaded persisted-session file: the Session and the facts about the file. */
export interface LoadedSessionFile {
  session: Session;
  facts: SessionFileFacts;
}

function refuseNewerSchema(file: string, line: number, found: unknown): void {
  if (typeof found === "number" && found > LATEST_SCHEMA_VERSION) {
    throw new RathError(
      "unsupported_schema_version",
      `${file}:${line}: schema_version ${found} is newer than this version of Rath reads (at most ${LATEST_SCHEMA_VERSION}); upgrade Rath to read it`,
      { details: { file, line, found, supported: LATEST_SCHEMA_VERSION } },
    );
  }
}

/**
 * Parses the text of a persisted-session file (either dialect). An unterminated last line is dropped; invalid
 * JSON, a second header, a chunk before the header, an unknown record type, a record after the trailer, a
 * non-contiguous chunk index, or no header at all throw `invalid_file` with `details {file, line}`; a newer
 * schema version throws `unsupported_schema_version`. No trailer gives `facts.closed = false`.
 */
export function parseSessionText(text: string, file: string): LoadedSessionFile {
  const { lines, droppedLastLine } = completeLines(text);
  let header: HeaderRecord | undefined;
  let trailer: TrailerRecord | undefined;
  let trailerLine = 0;
  const chunks: Chunk[] = [];
  let usageAfterOpen: Usage | null = null;

  for (const entry of lines) {
    const value = parseJsonObject(file, entry);
    const type = value.record_type;
    if (trailer) {
      throw invalidLine(file, entry.line, `expected nothing after the trailer on line ${trailerLine}, found a ${String(type)} record`);
    }
    if (type === "header") {
      if (header) throw invalidLine(file, entry.line, "expected one header record, found a second header");
      refuseNewerSchema(file, entry.line, value.schema_version);
      header = parseRecord(file, entry.line, "header record", HeaderRecord, value);
    } else if (type === "chunk") {
      if (!header) throw invalidLine(file, entry.line, "expected the header record first, found a chunk before the header");
      const record = parseRecord(file, entry.line, "chunk record", ChunkRecord, value);
      if (record.index !== chunks.length) {
        throw invalidLine(file, entry.line, `expected chunk index ${chunks.length}, found ${record.index}`);
      }
      const chunk = chunkFromRecord(record, header.schema_version, header.created_at, file, entry.line);
      if (chunks.length >= (header.usage_through_chunk ?? 0)) usageAfterOpen = addUsage(usageAfterOpen, chunk.meta.usage);
      chunks.push(chunk);
    } else if (type === "trailer") {
      if (!header) throw invalidLine(file, entry.line, "expected the header record first, found a trailer before the header");
      trailer = parseRecord(file, entry.line, "trailer record", TrailerRecord, value);
      trailerLine = entry.line;
      if (trailer.final_chunk_count !== chunks.length) {
        throw invalidLine(file, entry.line, `trailer says final_chunk_count ${trailer.final_chunk_count}, found ${chunks.length} chunk records`);
      }
    } else {
      throw invalidLine(file, entry.line, `unknown record_type ${JSON.stringify(type ?? null)}; expected header, chunk or trailer`);
    }
  }
  if (!header) {
    const line = lines.length > 0 ? (lines[0] as { line: number }).line : 1;
    throw invalidLine(file, line, "expected a header record, found no header in the file");
  }

  const usage = trailer
    ? trailer.cumulative_usage
    : header.schema_version === RATH_SCHEMA_VERSION
      ? addUsage(header.usage ?? null, usageAfterOpen)
      : null;
  const session = Session.fromSnapshot({
    id: header.id,
    chunks,
    // sandbox_backend null is a session the reference never placed: it stays unplaced (not "local").
    placement: { backend: header.sandbox_backend, spec: header.sandbox_spec },
    sandbox_handle_id: header.sandbox_handle_id,
    lineage: {
      parent_session_ids: header.parent_session_ids,
      lineage_operator: header.lineage_operator,
      lineage_kind: header.lineage_kind,
      lineage_extras: header.lineage_extras,
    },
    usage,
    pending: header.pending ?? [],
    provider: header.provider ?? null,
  });
  return {
    session,
    facts: {
      file,
      closed: trailer !== undefined,
      schema_version: header.schema_version,
      created_at: header.created_at,
      closed_at: trailer?.closed_at ?? null,
      final_chunk_count: trailer?.final_chunk_count ?? null,
      cumulative_usage: trailer?.cumulative_usage ?? null,
      dropped_last_line: droppedLastLine,
      sandbox_handle_id: header.sandbox_handle_id,
    },
  };
}

/** Reads and parses a persisted-session file (`<name>.jsonl` or `<name>.jsonl.__partial__`). */
export async function loadSessionFile(file: string): Promise<LoadedSessionFile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RathError(code === "ENOENT" ? "not_found" : "io_error", `cannot read persisted session ${file}: ${(error as Error).message}`, {
      cause: error,
      details: { file },
    });
  }
  return parseSessionText(text, file);
}

/**
 * The file of a persisted session in `directory`: `<name>.jsonl` when it was closed, else the
 * `<name>.jsonl.__partial__` a running or crashed writer left. Throws `not_found` when neither exists.
 */
export async function findSessionFile(directory: string, name: string): Promise<string> {
  const closed = join(directory, `${name}${SESSION_FILE_SUFFIX}`);
  for (const candidate of [closed, `${closed}${PARTIAL_SUFFIX}`]) {
    try {
      await access(candidate);
      return candidate;
    } catch {
      continue;
    }
  }
  throw new RathError("not_found", `expected ${closed} or ${closed}${PARTIAL_SUFFIX}, found neither`, { details: { directory, name } });
}
