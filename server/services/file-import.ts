/**
 * Imports the files a person drops on the home page as one read-only run: a Rath run bundle (on its own), or files
 * the Python reference implementation wrote — persisted sessions (`.jsonl`), crashed partial files
 * (`.jsonl.__partial__`) and lineage exports — in any mix. Every file is parsed completely first (a problem is
 * `invalid_file` naming the file and line, and nothing is stored); the sessions then go through the same bundle
 * path as a bundle import (`buildBundle` → `parseBundle` → `importRun`, one transaction). A session named as a
 * parent but not in the files is taken from a lineage export when one was dropped, else stored as an empty
 * placeholder (0 chunks) so the graph keeps its shape; a crashed session is marked failed with why.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import { parseBundle } from "../../runtime/files/bundle-reader";
import { buildBundle, type BundleSessionInput } from "../../runtime/files/bundle-writer";
import { completeLines, invalidLine, parseJsonObject } from "../../runtime/files/jsonl-lines";
import { parseLineageExport } from "../../runtime/files/lineage-export";
import type { LineageRecord } from "../../runtime/files/records";
import { parseSessionText } from "../../runtime/files/session-loader";
import type { SessionSnapshot } from "../../runtime/session/session";
import type { Database } from "../db/database";
import { importRun, type ImportedRun } from "../db/run-import";
import { payloadLimits, payloadTooLarge } from "./payload-limits";
import { importBundle } from "./transfer-service";

/** Input of `importFiles`: each file's name (for messages) and text. */
export const ImportFilesRequest = z.object({
  files: z
    .array(z.object({ name: z.string().trim().min(1).max(300), content: z.string() }))
    .min(1, "drop at least one file")
    .max(1000, "at most 1000 files at once"),
});
export type ImportFilesRequest = z.input<typeof ImportFilesRequest>;

/** What an import made, and what kind of files it read. */
export type FilesImport = ImportedRun & { source: "bundle" | "reference" };

type FileKind = "bundle" | "session" | "lineage";

/** What a file is, from its first record: a bundle header, a session header, or a lineage line. */
function kindOf(name: string, content: string): FileKind {
  const first = completeLines(content.endsWith("\n") ? content : `${content}\n`).lines[0];
  if (first === undefined) throw invalidLine(name, 1, "the file is empty");
  const record = parseJsonObject(name, first);
  if (record.record_type === "bundle") return "bundle";
  if (record.record_type === "header") return "session";
  if (record.record_type === undefined && typeof record.id === "string" && Array.isArray(record.parent_session_ids)) return "lineage";
  throw invalidLine(
    name,
    first.line,
    `not a file Rath reads: expected a run bundle ("record_type": "bundle"), a persisted session ("record_type": "header") or a lineage export line ({"id", "parent_session_ids", ...}); found ${record.record_type === undefined ? "a JSON object without record_type" : `record_type ${JSON.stringify(record.record_type)}`}`,
  );
}

function placeholder(id: string, record: LineageRecord | undefined): SessionSnapshot {
  return {
    id,
    chunks: [],
    placement: { backend: null, spec: null },
    sandbox_handle_id: null,
    lineage: record
      ? { parent_session_ids: record.parent_session_ids, lineage_operator: record.lineage_operator, lineage_kind: record.lineage_kind, lineage_extras: record.lineage_extras }
      : { parent_session_ids: [], lineage_operator: "(not in the imported files)", lineage_kind: "unknown", lineage_extras: [] },
    usage: record?.cumulative_usage ?? null,
    pending: [],
    provider: null,
  };
}

/** The sessions of reference files, parents first, with placeholders for parents none of the files hold. */
function referenceSessions(files: ReadonlyArray<{ name: string; content: string; kind: FileKind }>): BundleSessionInput[] {
  const loaded = new Map<string, BundleSessionInput & { file: string }>();
  const lineage = new Map<string, LineageRecord>();
  for (const file of files) {
    if (file.kind === "lineage") {
      for (const record of parseLineageExport(file.content, file.name)) lineage.set(record.id, record);
      continue;
    }
    const { session, facts } = parseSessionText(file.content, file.name);
    const previous = loaded.get(session.id);
    if (previous !== undefined) {
      throw new RathError("invalid_file", `${file.name}:1: session ${session.id} is also in ${previous.file}; drop one file per session`, { details: { file: file.name, line: 1 } });
    }
    const annotations = facts.closed
      ? {}
      : { status: "failed", error: `${file.name} has no trailer: the writer stopped (crashed or was abandoned) before closing this session` };
    loaded.set(session.id, { session: session.toSnapshot(), annotations, file: file.name });
  }
  const entries: BundleSessionInput[] = [];
  const placed = new Set<string>();
  const visit = (id: string, path: readonly string[]): void => {
    if (placed.has(id)) return;
    if (path.includes(id)) throw new RathError("cycle_detected", `the imported sessions' lineage has a cycle: ${[...path, id].join(" → ")}`);
    const entry = loaded.get(id) ?? { session: placeholder(id, lineage.get(id)), annotations: {} };
    const snapshot = entry.session as SessionSnapshot;
    for (const parent of snapshot.lineage.parent_session_ids) visit(parent, [...path, id]);
    placed.add(id);
    entries.push({ session: snapshot, annotations: entry.annotations ?? {} });
  };
  for (const id of [...loaded.keys(), ...lineage.keys()]) visit(id, []);
  return entries;
}

function describeFiles(names: readonly string[]): string {
  return names.length === 1 ? (names[0] as string) : `${names[0] as string} and ${names.length - 1} more`;
}

/**
 * Imports dropped files as one read-only run (see the module comment). Past RATH_MAX_IMPORT_BYTES in all:
 * `payload_too_large`; a malformed file: `invalid_file` naming file and line; nothing is stored in either case.
 */
export async function importFiles(database: Database, request: ImportFilesRequest): Promise<FilesImport> {
  const parsed = ImportFilesRequest.parse(request);
  const limit = payloadLimits().importBytes;
  const size = parsed.files.reduce((total, file) => total + Buffer.byteLength(file.content, "utf8"), 0);
  if (size > limit) throw payloadTooLarge("the imported files", size, limit, "RATH_MAX_IMPORT_BYTES");
  const files = parsed.files.map((file) => ({ ...file, kind: kindOf(file.name, file.content) }));
  const bundles = files.filter((file) => file.kind === "bundle");
  if (bundles.length > 0) {
    if (files.length > 1) {
      throw new RathError("invalid_argument", `${(bundles[0] as { name: string }).name} is a run bundle: import it on its own (it already holds the whole run)`);
    }
    const only = bundles[0] as { name: string; content: string };
    return { ...(await importBundle(database, { content: only.content, fileName: only.name })), source: "bundle" };
  }
  const sessions = referenceSessions(files);
  const names = files.map((file) => file.name);
  const label = describeFiles(names);
  const crashed = sessions.some((entry) => entry.annotations?.status === "failed");
  const content = buildBundle({ sessions, run: { run_id: label, status: crashed ? "failed" : "succeeded", events: [] } });
  const bundle = parseBundle(content, label);
  const contentSha256 = createHash("sha256");
  for (const file of files) contentSha256.update(file.name).update("\n").update(file.content).update("\n");
  return { ...(await importRun(database, { bundle, fileName: label, contentSha256: contentSha256.digest("hex") })), source: "reference" };
}
