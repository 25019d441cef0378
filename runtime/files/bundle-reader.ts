import { readFile } from "node:fs/promises";
import { RathError } from "../errors";
import type { Chunk } from "../session/chunk";
import { validateAcyclic } from "../session/graph";
import { Session } from "../session/session";
import { BUNDLE_SCHEMA_VERSION, BundleChunkRecord, BundleEventRecord, BundleRecord, BundleSessionRecord } from "./bundle-records";
import { chunkFromRecord } from "./dialect";
import { completeLines, invalidLine, parseJsonObject, parseRecord } from "./jsonl-lines";
import { RATH_SCHEMA_VERSION } from "./records";

/** One session read from a bundle, with the annotations the writer gave it. */
export interface BundleSession {
  session: Session;
  annotations: Record<string, unknown>;
}

/** A bundle read back: its first line, its sessions in file order (parents first), and the run events. */
export interface ReadBundle {
  bundle: BundleRecord;
  sessions: BundleSession[];
  events: Record<string, unknown>[];
}

interface Open {
  record: BundleSessionRecord;
  line: number;
  chunks: Chunk[];
}

/**
 * Parses a bundle. Every line is validated with zod; problems throw `invalid_file` with `details {file, line}`
 * (bad JSON, a first line that is not the bundle record, chunks out of order, a base that is not an earlier
 * session, fewer sessions/chunks/events than declared). The lineage is then checked with `validateAcyclic`.
 */
export function parseBundle(text: string, file: string): ReadBundle {
  const { lines } = completeLines(text);
  const first = lines[0];
  if (!first) throw invalidLine(file, 1, "expected a bundle record, found an empty file");
  const head = parseJsonObject(file, first);
  if (head.record_type !== "bundle") {
    throw invalidLine(file, first.line, `expected the first record to be record_type "bundle", found ${JSON.stringify(head.record_type ?? null)}`);
  }
  if (typeof head.schema_version === "number" && head.schema_version > BUNDLE_SCHEMA_VERSION) {
    throw new RathError(
      "unsupported_schema_version",
      `${file}:${first.line}: bundle schema_version ${head.schema_version} is newer than this version of Rath reads (at most ${BUNDLE_SCHEMA_VERSION})`,
      { details: { file, line: first.line, found: head.schema_version, supported: BUNDLE_SCHEMA_VERSION } },
    );
  }
  const bundle = parseRecord(file, first.line, "bundle record", BundleRecord, head);
  const done = new Map<string, Chunk[]>();
  const sessions: BundleSession[] = [];
  const events: Record<string, unknown>[] = [];
  let open: Open | undefined;

  const finish = (line: number): void => {
    if (!open) return;
    if (open.chunks.length !== open.record.chunk_count) {
      throw invalidLine(file, line, `session ${open.record.id} (line ${open.line}) declares ${open.record.chunk_count} chunks, found ${open.chunks.length}`);
    }
    const record = open.record;
    done.set(record.id, open.chunks);
    sessions.push({
      session: Session.fromSnapshot({
        id: record.id,
        chunks: open.chunks,
        placement: { backend: record.sandbox_backend, spec: record.sandbox_spec },
        sandbox_handle_id: record.sandbox_handle_id,
        lineage: {
          parent_session_ids: record.parent_session_ids,
          lineage_operator: record.lineage_operator,
          lineage_kind: record.lineage_kind,
          lineage_extras: record.lineage_extras,
        },
        usage: record.usage,
        pending: record.pending,
        provider: record.provider,
      }),
      annotations: record.annotations,
    });
    open = undefined;
  };

  for (const entry of lines.slice(1)) {
    const value = parseJsonObject(file, entry);
    const type = value.record_type;
    if (type === "session") {
      finish(entry.line);
      if (events.length > 0) throw invalidLine(file, entry.line, "expected sessions before events, found a session after an event");
      const record = parseRecord(file, entry.line, "session record", BundleSessionRecord, value);
      if (done.has(record.id)) throw invalidLine(file, entry.line, `expected each session once, found session ${record.id} again`);
      let chunks: Chunk[] = [];
      if (record.base) {
        const base = done.get(record.base.session_id);
        if (!base) throw invalidLine(file, entry.line, `expected base session ${record.base.session_id} earlier in the bundle, found none`);
        if (record.base.chunk_count > base.length) {
          throw invalidLine(file, entry.line, `base takes ${record.base.chunk_count} chunks of session ${record.base.session_id}, which has ${base.length}`);
        }
        chunks = base.slice(0, record.base.chunk_count);
      }
      open = { record, line: entry.line, chunks };
    } else if (type === "chunk") {
      if (!open) throw invalidLine(file, entry.line, "expected a session record before its chunks, found a chunk");
      const record = parseRecord(file, entry.line, "chunk record", BundleChunkRecord, value);
      if (record.index !== open.chunks.length) throw invalidLine(file, entry.line, `expected chunk index ${open.chunks.length}, found ${record.index}`);
      open.chunks.push(chunkFromRecord(record, RATH_SCHEMA_VERSION, record.meta.at, file, entry.line));
    } else if (type === "event") {
      finish(entry.line);
      const record = parseRecord(file, entry.line, "event record", BundleEventRecord, value);
      if (record.index !== events.length) throw invalidLine(file, entry.line, `expected event index ${events.length}, found ${record.index}`);
      events.push(record.event);
    } else {
      throw invalidLine(file, entry.line, `unknown record_type ${JSON.stringify(type ?? null)}; expected session, chunk or event`);
    }
  }
  const end = (lines[lines.length - 1]?.line ?? 0) + 1;
  finish(end);
  if (sessions.length !== bundle.session_count) {
    throw invalidLine(file, end, `bundle declares ${bundle.session_count} sessions, found ${sessions.length} (truncated file?)`);
  }
  if (events.length !== bundle.event_count) {
    throw invalidLine(file, end, `bundle declares ${bundle.event_count} events, found ${events.length} (truncated file?)`);
  }
  validateAcyclic(sessions.map((entry) => entry.session));
  return { bundle, sessions, events };
}

/** Reads and parses a bundle file. */
export async function readBundle(file: string): Promise<ReadBundle> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new RathError("io_error", `cannot read bundle ${file}: ${(error as Error).message}`, { cause: error, details: { file } });
  }
  return parseBundle(text, file);
}
