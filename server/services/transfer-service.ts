/**
 * Export and import of whole runs. Export writes a run bundle (runtime/files, Rath dialect) or, for the
 * reference implementation, one persisted-session file per session in dialect 1 plus a lineage export. Import
 * parses and validates a bundle completely before writing anything, then stores it as a read-only run of an
 * "Imported" workflow in ONE transaction, so a malformed bundle leaves the database unchanged.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { parseBundle } from "../../runtime/files/bundle-reader";
import { buildBundle } from "../../runtime/files/bundle-writer";
import { exportLineage } from "../../runtime/files/lineage-export";
import { REFERENCE_SCHEMA_VERSION } from "../../runtime/files/records";
import { sessionFileText } from "../../runtime/files/session-records";
import type { Chunk } from "../../runtime/session/chunk";
import { Session, type SessionSnapshot } from "../../runtime/session/session";
import type { Database } from "../db/database";
import { eventsPage, type RunEventRecord } from "../db/run-events";
import type { SessionRecord } from "../db/session-record";
import { chunkPage, getSession, sessionGraph } from "../db/session-store";
import { getWorkflow } from "../db/workflow-store";
import { importRun, type ImportedRun } from "../db/run-import";
import { payloadLimits, payloadTooLarge } from "./payload-limits";
import { requireRun } from "./run-service";

/** Input of `exportRun`: `rath` = one bundle file; `reference` = dialect-1 session files and a lineage export. */
export const ExportRunRequest = z.object({
  runId: z.string().min(1),
  dialect: z.enum(["rath", "reference"]).default("rath"),
});
export type ExportRunRequest = z.input<typeof ExportRunRequest>;

/** One exported file: its suggested name and its JSONL text. */
export interface ExportedFile {
  name: string;
  content: string;
}

/** An export: the bundle (rath) or the session files and lineage export (reference). */
export type RunExport =
  | { dialect: "rath"; runId: string; bundle: ExportedFile }
  | { dialect: "reference"; runId: string; sessions: ExportedFile[]; lineage: ExportedFile };

const PAGE = 1000;

/** Every chunk of a session, read in pages. */
export async function allChunks(database: Database, sessionId: string, count: number): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  while (chunks.length < count) {
    const page = await chunkPage(database, sessionId, { fromIndex: chunks.length, limit: PAGE });
    if (page.length === 0) break;
    for (const row of page) chunks.push(row.chunk);
  }
  return chunks;
}

/** Every event of a run, read in pages. */
export async function allEvents(database: Database, runId: string): Promise<RunEventRecord[]> {
  const events: RunEventRecord[] = [];
  for (;;) {
    const page = await eventsPage(database, runId, { afterSeq: events[events.length - 1]?.seq ?? 0, limit: PAGE });
    events.push(...page);
    if (page.length < PAGE) return events;
  }
}

async function snapshotOf(database: Database, record: SessionRecord): Promise<SessionSnapshot> {
  return {
    id: record.id,
    chunks: await allChunks(database, record.id, record.chunkCount),
    placement: record.placement,
    sandbox_handle_id: null,
    lineage: record.lineage,
    usage: record.usage,
    pending: [],
    provider: null,
  };
}

/**
 * The run's sessions, plus any ancestors from other runs (a run forked from another one), so the exported lineage
 * is complete; each comes with its annotations (`node_id`, `status`, `run_id`, `inherited_chunk_count`).
 */
async function sessionsWithAncestors(database: Database, runId: string): Promise<Array<{ record: SessionRecord; snapshot: SessionSnapshot }>> {
  const graph = await sessionGraph(database, runId);
  const byId = new Map<string, SessionRecord>(graph.sessions.map((session) => [session.id, session]));
  const missing = graph.sessions.flatMap((session) => session.lineage.parent_session_ids).filter((id) => !byId.has(id));
  while (missing.length > 0) {
    const id = missing.pop() as string;
    if (byId.has(id)) continue;
    const parent = await getSession(database, id);
    if (parent === null) continue;
    byId.set(id, parent);
    missing.push(...parent.lineage.parent_session_ids);
  }
  const out: Array<{ record: SessionRecord; snapshot: SessionSnapshot }> = [];
  for (const record of byId.values()) out.push({ record, snapshot: await snapshotOf(database, record) });
  return out;
}

function referenceSessionFile(snapshot: SessionSnapshot, createdAt: Date): ExportedFile {
  const content = sessionFileText(Session.fromSnapshot(snapshot), { dialect: REFERENCE_SCHEMA_VERSION, createdAt, closedAt: createdAt });
  return { name: `${snapshot.id}.jsonl`, content };
}

/** Exports a run (its sessions, chunks, lineage and events) in the chosen dialect; secrets are never written. */
export async function exportRun(database: Database, request: ExportRunRequest): Promise<RunExport> {
  const parsed = ExportRunRequest.parse(request);
  const run = await requireRun(database, parsed.runId);
  const sessions = await sessionsWithAncestors(database, run.id);
  if (parsed.dialect === "reference") {
    return {
      dialect: "reference",
      runId: run.id,
      sessions: sessions.map(({ record, snapshot }) => referenceSessionFile(snapshot, record.createdAt)),
      lineage: { name: `run-${run.id}-lineage.jsonl`, content: exportLineage(sessions.map(({ snapshot }) => snapshot)) },
    };
  }
  const events = await allEvents(database, run.id);
  const content = buildBundle({
    sessions: sessions.map(({ record, snapshot }) => ({
      session: snapshot,
      annotations: {
        node_id: record.nodeId,
        status: record.status,
        run_id: record.runId,
        inherited_chunk_count: record.inheritedChunkCount,
        ...(record.error === null ? {} : { error: record.error }),
      },
    })),
    run: {
      run_id: run.id,
      workflow: run.workflowId,
      workflow_name: (await getWorkflow(database, run.workflowId, { includeDeleted: true }))?.name ?? null,
      revision: run.revisionId,
      status: run.status,
      events: events.map((event) => ({ seq: event.seq, type: event.type, payload: event.payload, at: event.at.toISOString() })),
    },
  });
  return { dialect: "rath", runId: run.id, bundle: { name: `run-${run.id}.jsonl`, content } };
}

/**
 * Input of `importBundle`: the bundle's JSONL text and, for error messages, its file name. Its size is checked
 * against RATH_MAX_IMPORT_BYTES by `importBundle`.
 */
export const ImportBundleRequest = z.object({
  content: z.string().min(1, "the bundle is empty"),
  fileName: z.string().min(1).max(300).default("bundle.jsonl"),
});
export type ImportBundleRequest = z.input<typeof ImportBundleRequest>;

/** What an import created: the new run (read-only, in a terminal status) and its workflow. */
export type ImportResult = ImportedRun;

/**
 * Imports a run bundle. The text is validated completely first (`invalid_file` naming the file and line, and
 * nothing written; past RATH_MAX_IMPORT_BYTES `payload_too_large`); then the store writes the workflow, revision, run, sessions, chunks and events in one
 * transaction (`importRun`).
 */
export async function importBundle(database: Database, request: ImportBundleRequest): Promise<ImportResult> {
  const parsed = ImportBundleRequest.parse(request);
  const limit = payloadLimits().importBytes;
  const size = Buffer.byteLength(parsed.content, "utf8");
  if (size > limit) throw payloadTooLarge("the run bundle", size, limit, "RATH_MAX_IMPORT_BYTES");
  const bundle = parseBundle(parsed.content, parsed.fileName);
  const contentSha256 = createHash("sha256").update(parsed.content, "utf8").digest("hex");
  return importRun(database, { bundle, fileName: parsed.fileName, contentSha256 });
}
