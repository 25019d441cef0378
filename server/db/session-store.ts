/**
 * Read side of the session graph: the sessions and lineage edges of a run, one session, and pages of a
 * session's chunks by index (never the whole session in one payload).
 */
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import type { Database } from "./database";
import { rowReader } from "./raw-sql";
import { readSessionChunks } from "./session-chunks";
import { LineageExtras, LineageKind, type Lineage } from "../../runtime/session/lineage";
import { Usage } from "../../runtime/session/usage";
import { fromJsonTextQuickly, toJsonText } from "./json-text";
import { SessionStatus, toSessionRecord, type ChunkRecord, type SessionRecord } from "./session-record";

/** A lineage edge: `parentId` is parent number `position` of `childId`. */
export interface SessionEdge {
  parentId: string;
  childId: string;
  position: number;
}

/**
 * The session graph of a run: its sessions in creation order (the seq of their `session.created` event, then
 * creation time, then id) and every parent edge into them. Callers that need parents first sort topologically.
 */
export interface SessionGraph {
  sessions: SessionRecord[];
  edges: SessionEdge[];
}

/**
 * Returns the sessions a run produced and their lineage edges (parents may belong to an earlier run), edges ordered
 * by child id, then position. The edges come from the sessions' own parent lists: `session_parents` holds only the
 * edges that cross runs (session-parent-rows.ts).
 */
export async function sessionGraph(database: Database, runId: string): Promise<SessionGraph> {
  const rows = await database.client.session.findMany({ where: { runId }, orderBy: [{ createdSeq: "asc" }, { createdAt: "asc" }, { id: "asc" }] });
  const sessions = rows.map(toSessionRecord);
  const edges: SessionEdge[] = [];
  for (const session of [...sessions].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    session.lineage.parent_session_ids.forEach((parentId, position) => edges.push({ parentId, childId: session.id, position }));
  }
  return { sessions, edges };
}

/** A session as the run's graph draws it: lineage, own usage, counts, status; no placement or storage details. */
export interface GraphSessionRecord {
  id: string;
  nodeId: string | null;
  lineage: Lineage;
  /** Usage of the chunks the session added itself (null when none reported). */
  ownUsage: Usage | null;
  chunkCount: number;
  inheritedChunkCount: number;
  status: SessionStatus;
  error: string | null;
}

interface GraphSessionRow {
  id: string;
  node_id: string | null;
  parents: string;
  lineage_operator: string;
  lineage_kind: string;
  lineage_extras: string;
  own_usage: string | null;
  chunk_count: number | bigint;
  inherited_chunk_count: number | bigint;
  status: string;
  error: string | null;
}

/**
 * The sessions a run produced, in creation order (the seq of their `session.created` event, then creation time,
 * then id; the (run_id, created_seq) index serves it), with only what the graph draws. Parents come from each
 * session's own `parents` column (ordered), so no edge rows are read; parents may belong to an earlier run.
 * One raw statement (`rowReader`): Prisma's mapping of whole rows (`sessionGraph`) cost ten times the query for a
 * 5,000-session run.
 */
export async function graphSessions(database: Database, runId: string): Promise<GraphSessionRecord[]> {
  const rows = await rowReader(database)<GraphSessionRow>(
    `SELECT "id", "node_id", "parents", "lineage_operator", "lineage_kind", "lineage_extras", "own_usage", "chunk_count",
        "inherited_chunk_count", "status", "error"
      FROM "sessions" WHERE "run_id" = ? ORDER BY "created_seq", "created_at", "id"`,
    runId,
  );
  return rows.map((row) => {
    const what = `session ${row.id}`;
    return {
      id: row.id,
      nodeId: row.node_id,
      lineage: {
        parent_session_ids: fromJsonTextQuickly(row.parents, ParentIds, `parents of ${what}`, isStringArray),
        lineage_operator: row.lineage_operator,
        lineage_kind: LINEAGE_KIND_SET.has(row.lineage_kind) ? (row.lineage_kind as LineageKind) : LineageKind.parse(row.lineage_kind),
        lineage_extras: fromJsonTextQuickly(row.lineage_extras, LineageExtras, `lineage extras of ${what}`, isExtras),
      },
      ownUsage: row.own_usage === null ? null : fromJsonTextQuickly(row.own_usage, Usage, `own usage of ${what}`, isUsage),
      chunkCount: Number(row.chunk_count),
      inheritedChunkCount: Number(row.inherited_chunk_count),
      status: row.status === "ok" || row.status === "failed" ? row.status : SessionStatus.parse(row.status),
      error: row.error,
    };
  });
}

const ParentIds = z.array(z.string());
const LINEAGE_KIND_SET: ReadonlySet<string> = new Set(LineageKind.options);

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isExtras(value: unknown): value is LineageExtras {
  return Array.isArray(value) && value.every((item) => Array.isArray(item) && item.length === 2 && typeof item[0] === "string");
}

function isUsage(value: unknown): value is Usage {
  if (typeof value !== "object" || value === null) return false;
  const usage = value as Record<string, unknown>;
  const count = (key: string) => Number.isInteger(usage[key]) && (usage[key] as number) >= 0;
  return Object.keys(usage).length === 3 && count("prompt_tokens") && count("completion_tokens") && count("total_tokens");
}

/** One session, or null. */
export async function getSession(database: Database, sessionId: string): Promise<SessionRecord | null> {
  const row = await database.client.session.findUnique({ where: { id: sessionId } });
  return row === null ? null : toSessionRecord(row);
}

/**
 * The sessions that name `sessionId` as a parent (forks, merges and derivations of it): those of its own run, found
 * by their parent lists, and those of other runs, found by their `session_parents` rows (session-parent-rows.ts).
 */
export async function childSessions(database: Database, sessionId: string): Promise<SessionRecord[]> {
  const parent = await database.client.session.findUnique({ where: { id: sessionId }, select: { runId: true } });
  const rows = await database.client.session.findMany({
    where: {
      OR: [
        // The id as the parent lists write it; what LIKE matches more loosely (case, wildcards) is filtered below.
        ...(parent === null ? [] : [{ runId: parent.runId, parents: { contains: toJsonText(sessionId, "session id") } }]),
        { parentEdges: { some: { parentId: sessionId } } },
      ],
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(toSessionRecord).filter((session) => session.lineage.parent_session_ids.includes(sessionId));
}

/** Options of `chunkPage`. */
export interface ChunkPageOptions {
  /** First index of the page (default 0). */
  fromIndex?: number;
  /** At most this many chunks (default 100, at most 1000). */
  limit?: number;
}

/**
 * A page of a session's chunks in index order, starting at `fromIndex` (empty past the end, or for an unknown
 * session). Chunks the session shares with its base are read from the base (see session-chunks.ts).
 */
export async function chunkPage(database: Database, sessionId: string, options: ChunkPageOptions = {}): Promise<ChunkRecord[]> {
  const fromIndex = options.fromIndex ?? 0;
  const limit = options.limit ?? 100;
  if (!Number.isInteger(fromIndex) || fromIndex < 0) {
    throw new RathError("invalid_argument", `fromIndex must be a non-negative integer; found ${fromIndex}`);
  }
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new RathError("invalid_argument", `limit must be an integer from 1 to 1000; found ${limit}`);
  }
  return (await readSessionChunks(database, sessionId, { fromIndex, toIndex: fromIndex + limit })) ?? [];
}

/** Where a session's own tool errors are: how many, and the index of the first. */
export interface SessionToolErrors {
  count: number;
  firstIndex: number;
}

const ToolEvidenceOk = z.object({ evidence: z.object({ ok: z.boolean() }).optional() });

/**
 * The tool results that failed (`meta.evidence.ok === false`) among the chunks each session of a run added itself
 * (index at or after its inherited chunks, so a merge does not repeat its parents' errors), by session.
 */
export async function runToolErrors(database: Database, runId: string): Promise<Map<string, SessionToolErrors>> {
  // The LIKE is a cheap prefilter on the stored JSON; each candidate's meta is parsed to be sure.
  const rows = await rowReader(database)<{ session_id: string; index: number | bigint; meta: string }>(
    `SELECT "c"."session_id", "c"."index", "c"."meta" FROM "chunks" "c" JOIN "sessions" "s" ON "s"."id" = "c"."session_id"
      WHERE "s"."run_id" = ? AND "c"."kind" = 'tool_result' AND "c"."index" >= "s"."inherited_chunk_count" AND "c"."meta" LIKE '%"ok":false%'
      ORDER BY "c"."session_id", "c"."index"`,
    runId,
  );
  const errors = new Map<string, SessionToolErrors>();
  for (const row of rows) {
    let failed = false;
    try {
      failed = ToolEvidenceOk.safeParse(JSON.parse(row.meta)).data?.evidence?.ok === false;
    } catch {
      failed = false;
    }
    if (!failed) continue;
    const index = Number(row.index);
    const known = errors.get(row.session_id);
    if (known === undefined) errors.set(row.session_id, { count: 1, firstIndex: index });
    else errors.set(row.session_id, { count: known.count + 1, firstIndex: Math.min(known.firstIndex, index) });
  }
  return errors;
}

/** Token usage of one model. */
export interface ModelUsage {
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

const UsageMeta = z.object({
  model: z.string().optional(),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() }).optional(),
});

/**
 * Own usage of each session of a run by model (from the chunks each session added itself; chunks without a model
 * count under "unknown"), for the cost of sessions, branches and the run.
 */
export async function runUsageByModel(database: Database, runId: string): Promise<Map<string, ModelUsage[]>> {
  const rows = await rowReader(database)<{ session_id: string; meta: string }>(
    `SELECT "c"."session_id", "c"."meta" FROM "chunks" "c" JOIN "sessions" "s" ON "s"."id" = "c"."session_id"
      WHERE "s"."run_id" = ? AND "c"."index" >= "s"."inherited_chunk_count" AND "c"."meta" LIKE '%"usage":%'`,
    runId,
  );
  const bySession = new Map<string, Map<string, ModelUsage>>();
  for (const row of rows) {
    let meta: z.infer<typeof UsageMeta> | undefined;
    try {
      meta = UsageMeta.safeParse(JSON.parse(row.meta)).data;
    } catch {
      meta = undefined;
    }
    if (meta?.usage === undefined) continue;
    const model = meta.model ?? "unknown";
    let models = bySession.get(row.session_id);
    if (models === undefined) {
      models = new Map();
      bySession.set(row.session_id, models);
    }
    const known = models.get(model) ?? { model, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    models.set(model, {
      model,
      prompt_tokens: known.prompt_tokens + meta.usage.prompt_tokens,
      completion_tokens: known.completion_tokens + meta.usage.completion_tokens,
      total_tokens: known.total_tokens + meta.usage.total_tokens,
    });
  }
  return new Map([...bySession].map(([sessionId, models]) => [sessionId, [...models.values()]]));
}
