/**
 * Stores a parsed run bundle (runtime/files) as a new read-only run of an "Imported" workflow, in ONE
 * transaction: any failure leaves the database unchanged. Sessions keep their ids unless one of them already
 * exists here (then all get fresh ones); a session that starts with a parent's chunks is stored with that parent
 * as its base, so an imported fork costs no chunk rows.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { ReadBundle } from "../../runtime/files/bundle-reader";
import type { Chunk } from "../../runtime/session/chunk";
import type { SessionSnapshot } from "../../runtime/session/session";
import { inheritedChunkCount, ownUsageOfChunks } from "../../runtime/session/usage-rollup";
import { isTerminalRunStatus, RunStatus } from "./run-status";
import type { Database, TransactionClient } from "./database";
import { toJsonText } from "./json-text";
import type { SessionBase } from "./session-record";
import { sharedPrefixLength } from "./shared-prefix";
import { newSortableId } from "./sortable-id";

/** Input of `importRun`: the parsed bundle, the file it came from and the sha256 of its text (hex). */
export interface ImportRunInput {
  bundle: ReadBundle;
  fileName: string;
  contentSha256: string;
}

/** What an import created: the new run (read-only, in a terminal status) and its workflow. */
export interface ImportedRun {
  runId: string;
  workflowId: string;
  revisionId: string;
  status: RunStatus;
  sessionCount: number;
  eventCount: number;
  /** True when the bundle's session ids already existed here and were replaced by fresh ones. */
  renamedSessions: boolean;
}

const ImportedEvent = z.object({ type: z.string().min(1), payload: z.record(z.string(), z.unknown()).optional() }).loose();

/** Rows per createMany of chunks (keeps each statement well under the providers' parameter limits). */
const CHUNK_BATCH = 1000;

/**
 * Imports a parsed bundle as a new run. The run's status is the bundle's when it is terminal, else `cancelled`
 * with an `imported` error (an imported run never executes here). Appends the bundle's events, then `run.imported`.
 */
export async function importRun(database: Database, input: ImportRunInput): Promise<ImportedRun> {
  const { bundle } = input;
  const sourceStatus = RunStatus.safeParse(bundle.bundle.run?.status);
  const status: RunStatus = sourceStatus.success && isTerminalRunStatus(sourceStatus.data) ? sourceStatus.data : "cancelled";
  return database.transaction(async (transaction) => {
    const ids = bundle.sessions.map((entry) => entry.session.id);
    // Counted in slices: one `IN` list of thousands of ids passes the database's bound-parameter limit.
    let clashes = 0;
    for (let start = 0; start < ids.length; start += 500) clashes += await transaction.session.count({ where: { id: { in: ids.slice(start, start + 500) } } });
    const rename = new Map<string, string>(ids.map((id) => [id, clashes > 0 ? randomUUID() : id]));
    const created = await writeRun(transaction, input, status);
    await writeSessions(transaction, bundle, created.runId, rename);
    const eventCount = await writeEvents(transaction, bundle, created.runId, input.fileName);
    return { ...created, status, sessionCount: bundle.sessions.length, eventCount, renamedSessions: clashes > 0 };
  });
}

function originOf(input: ImportRunInput): Record<string, unknown> {
  const source = input.bundle.bundle.run;
  return { file: input.fileName, run_id: source?.run_id ?? null, workflow: source?.workflow ?? null, revision: source?.revision ?? null };
}

async function writeRun(transaction: TransactionClient, input: ImportRunInput, status: RunStatus): Promise<{ runId: string; workflowId: string; revisionId: string }> {
  const now = new Date();
  const source = input.bundle.bundle.run;
  const workflowId = newSortableId("wf");
  const revisionId = newSortableId("rev");
  const runId = newSortableId("run");
  const origin = originOf(input);
  await transaction.workflow.create({
    data: { id: workflowId, name: `Imported: ${source?.workflow_name ?? source?.run_id ?? input.fileName}`, description: `Imported from ${input.fileName}; read-only.` },
  });
  await transaction.workflowRevision.create({
    data: {
      id: revisionId,
      workflowId,
      number: 1,
      spec: toJsonText({ imported: origin }, "imported spec"),
      layout: "{}",
      specSha256: input.contentSha256,
      planId: "imported",
      parentRevisionId: null,
      message: "imported bundle",
    },
  });
  await transaction.workflow.update({ where: { id: workflowId }, data: { headRevisionId: revisionId } });
  const notRunnable = status === "cancelled" && source?.status !== "cancelled";
  await transaction.run.create({
    data: {
      id: runId,
      workflowId,
      revisionId,
      planHash: input.contentSha256,
      status,
      input: toJsonText({ imported: origin }, "imported input"),
      error: notRunnable
        ? toJsonText({ code: "imported", message: `imported while ${source?.status ?? "of unknown status"}; an imported run cannot execute here` }, "run error")
        : null,
      finishedAt: now,
    },
  });
  return { runId, workflowId, revisionId };
}

/** The bundle's sessions (parents first), each with the longest chunk prefix it shares with an imported parent. */
async function writeSessions(transaction: TransactionClient, bundle: ReadBundle, runId: string, rename: ReadonlyMap<string, string>): Promise<void> {
  const now = new Date();
  const imported = new Map<string, { chunks: readonly Chunk[]; base: SessionBase | null }>();
  const sessions = [];
  const chunks = [];
  for (const entry of bundle.sessions) {
    const snapshot = entry.session.toSnapshot();
    const id = rename.get(snapshot.id) as string;
    const parentIds = snapshot.lineage.parent_session_ids.map((parent) => rename.get(parent) ?? parent);
    const base = importedBase(parentIds, snapshot.chunks, imported);
    const inherited = importedInheritedCount(snapshot, parentIds, entry.annotations.inherited_chunk_count, imported);
    imported.set(id, { chunks: snapshot.chunks, base });
    const failed = entry.annotations.status === "failed";
    sessions.push({
      id,
      runId,
      nodeId: typeof entry.annotations.node_id === "string" ? entry.annotations.node_id : null,
      parents: toJsonText(parentIds, "session parents"),
      lineageOperator: snapshot.lineage.lineage_operator,
      lineageKind: snapshot.lineage.lineage_kind,
      lineageExtras: toJsonText(snapshot.lineage.lineage_extras, "lineage extras"),
      placement: toJsonText(snapshot.placement, "session placement"),
      usage: snapshot.usage === null ? null : toJsonText(snapshot.usage, "session usage"),
      ownUsage: jsonOrNull(ownUsageOfChunks(snapshot.chunks, inherited), "session own usage"),
      chunkCount: snapshot.chunks.length,
      inheritedChunkCount: inherited,
      baseSessionId: base?.sessionId ?? null,
      baseChunkCount: base?.chunkCount ?? 0,
      status: failed ? "failed" : "ok",
      error: failed && typeof entry.annotations.error === "string" ? entry.annotations.error : null,
      createdAt: now,
      // Bundle order is creation order (parents first).
      createdSeq: sessions.length + 1,
    });
    for (let index = base?.chunkCount ?? 0; index < snapshot.chunks.length; index += 1) {
      const chunk = snapshot.chunks[index] as Chunk;
      chunks.push({
        sessionId: id,
        index,
        kind: chunk.kind,
        payload: toJsonText(chunk.payload, `payload of chunk ${id}#${index}`),
        meta: toJsonText(chunk.meta, `meta of chunk ${id}#${index}`),
      });
    }
  }
  if (sessions.length > 0) await transaction.session.createMany({ data: sessions });
  // No session_parents rows: a bundle carries every parent it names (parseBundle refuses one that it does not), so
  // each edge is within the imported run and is read from the parent lists (session-parent-rows.ts).
  for (let start = 0; start < chunks.length; start += CHUNK_BATCH) {
    await transaction.chunk.createMany({ data: chunks.slice(start, start + CHUNK_BATCH) });
  }
}

function jsonOrNull(value: unknown, what: string): string | null {
  return value === null ? null : toJsonText(value, what);
}

/**
 * How many chunks an imported session took from its parents: the bundle's `inherited_chunk_count` annotation
 * (written by Rath's export), else its parents' chunks matched in order (the same objects or equal content). A
 * root session took none.
 */
function importedInheritedCount(
  snapshot: SessionSnapshot,
  parentIds: readonly string[],
  annotated: unknown,
  imported: ReadonlyMap<string, { chunks: readonly Chunk[] }>,
): number {
  if (typeof annotated === "number" && Number.isInteger(annotated) && annotated >= 0 && annotated <= snapshot.chunks.length) return annotated;
  if (parentIds.length === 0) return 0;
  return inheritedChunkCount(snapshot.chunks, parentIds.map((parentId) => imported.get(parentId)?.chunks), sameChunk);
}

function sameChunk(left: Chunk, right: Chunk): boolean {
  return left === right || JSON.stringify(left) === JSON.stringify(right);
}

/**
 * The base of an imported session: the imported parent it shares the most leading chunks with (same chunk
 * objects, as the bundle reader shares them), followed down to that parent's own base while the prefix lies in it.
 */
function importedBase(
  parentIds: readonly string[],
  chunks: readonly Chunk[],
  imported: ReadonlyMap<string, { chunks: readonly Chunk[]; base: SessionBase | null }>,
): SessionBase | null {
  let best: SessionBase | null = null;
  for (const parentId of parentIds) {
    const parent = imported.get(parentId);
    if (parent === undefined) continue;
    const shared = sharedPrefixLength(chunks, parent.chunks);
    if (shared > (best?.chunkCount ?? 0)) best = { sessionId: parentId, chunkCount: shared };
  }
  if (best === null) return null;
  for (;;) {
    const own: SessionBase | null = imported.get(best.sessionId)?.base ?? null;
    if (own === null || best.chunkCount > own.chunkCount) return best;
    best = { sessionId: own.sessionId, chunkCount: best.chunkCount };
  }
}

async function writeEvents(transaction: TransactionClient, bundle: ReadBundle, runId: string, fileName: string): Promise<number> {
  const now = new Date();
  const events = bundle.events.map((event) => {
    const known = ImportedEvent.safeParse(event);
    return known.success ? { type: known.data.type, payload: known.data.payload ?? {} } : { type: "imported.event", payload: { event } };
  });
  const source = bundle.bundle.run;
  events.push({
    type: "run.imported",
    payload: { file: fileName, run_id: source?.run_id ?? null, workflow: source?.workflow ?? null, revision: source?.revision ?? null, session_count: bundle.sessions.length },
  });
  await transaction.runEvent.createMany({
    data: events.map((event, index) => ({ runId, seq: index + 1, type: event.type, payload: toJsonText(event.payload, "imported event payload"), at: now })),
  });
  await transaction.run.update({ where: { id: runId }, data: { eventSeq: events.length } });
  return bundle.events.length;
}
