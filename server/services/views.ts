/**
 * What the API returns: store records as plain JSON values (dates as ISO strings), so tRPC, the HTTP routes and
 * the CLI send the same shapes without a transformer, and nothing internal (fencing tokens, keys) slips out.
 */
import type { Chunk } from "../../runtime/session/chunk";
import type { EffectRecord, EffectStatus } from "../db/effect-ledger";
import type { InterruptDecision, InterruptRecord } from "../db/interrupt-store";
import type { ProviderSettingView } from "../db/provider-settings-store";
import type { RunEventRecord } from "../db/run-events";
import type { RunRecord } from "../db/run-record";
import type { ChunkRecord, SessionRecord, SessionStatus } from "../db/session-record";
import type { RevisionRecord, WorkflowRecord } from "../db/workflow-store";
import type { Lineage } from "../../runtime/session/lineage";
import type { Placement } from "../../runtime/sandbox/handle";
import type { Usage } from "../../runtime/session/usage";

/** A record as JSON sends it: every Date field an ISO string (nullable dates stay nullable). */
type WithIsoDates<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

function iso(date: Date): string;
function iso(date: Date | null): string | null;
function iso(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}

/** A workflow as the API shows it. */
export type WorkflowView = WithIsoDates<WorkflowRecord>;

/** A workflow record as a view. */
export function workflowView(record: WorkflowRecord): WorkflowView {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    headRevisionId: record.headRevisionId,
    createdAt: iso(record.createdAt),
    updatedAt: iso(record.updatedAt),
    deletedAt: iso(record.deletedAt),
  };
}

/** An immutable revision as the API shows it. */
export type RevisionView = WithIsoDates<RevisionRecord>;

/** A revision record as a view. */
export function revisionView(record: RevisionRecord): RevisionView {
  return { ...record, createdAt: iso(record.createdAt) };
}

/** A run as the API shows it: no lease expiry or fencing token. */
export type RunView = WithIsoDates<Omit<RunRecord, "leaseExpiresAt" | "fencingToken">>;

/** A run record as a view. */
export function runView(record: RunRecord): RunView {
  return {
    id: record.id,
    workflowId: record.workflowId,
    revisionId: record.revisionId,
    planHash: record.planHash,
    status: record.status,
    version: record.version,
    priority: record.priority,
    input: record.input,
    output: record.output,
    error: record.error,
    idempotencyKey: record.idempotencyKey,
    leaseOwner: record.leaseOwner,
    tokenBudget: record.tokenBudget,
    tokensUsed: record.tokensUsed,
    cancelRequested: record.cancelRequested,
    lastEventSeq: record.lastEventSeq,
    createdAt: iso(record.createdAt),
    updatedAt: iso(record.updatedAt),
    startedAt: iso(record.startedAt),
    finishedAt: iso(record.finishedAt),
    deadlineAt: iso(record.deadlineAt),
    waitDeadlineAt: iso(record.waitDeadlineAt),
  };
}

/** One run event as the API shows it. */
export interface RunEventView {
  runId: string;
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  at: string;
}

/** A run event record as a view. */
export function runEventView(record: RunEventRecord): RunEventView {
  return { runId: record.runId, seq: record.seq, type: record.type, payload: record.payload, at: iso(record.at) };
}

/**
 * A session node of the graph: lineage, usage, status, the canvas node that produced it, its chunk count.
 * Usage has one meaning per field (runtime/session/usage-rollup.ts): `ownUsage` is what the session's own chunks
 * cost; the graph adds `cumulativeUsage` (over its ancestors, each once).
 */
export interface SessionView {
  id: string;
  runId: string;
  nodeId: string | null;
  lineage: Lineage;
  placement: Placement;
  /** Usage of the chunks the session added itself (null when no provider reported any). */
  ownUsage: Usage | null;
  chunkCount: number;
  /** Chunks taken from the parents when the session was created; chunks from this index on are its own. */
  inheritedChunkCount: number;
  /** The stored session whose first `chunkCount` chunks this one shares (storage detail; see server/db README). */
  base: { sessionId: string; chunkCount: number } | null;
  status: SessionStatus;
  error: string | null;
  createdAt: string;
}

/** A session record as a view (placement env is left out: it may hold secrets). */
export function sessionView(record: SessionRecord): SessionView {
  const spec = record.placement.spec;
  return {
    id: record.id,
    runId: record.runId,
    nodeId: record.nodeId,
    lineage: record.lineage,
    placement: { ...record.placement, spec: spec === null ? null : { ...spec, env: {} } },
    ownUsage: record.ownUsage,
    chunkCount: record.chunkCount,
    inheritedChunkCount: record.inheritedChunkCount,
    base: record.base,
    status: record.status,
    error: record.error,
    createdAt: iso(record.createdAt),
  };
}

/** One chunk with its index. */
export interface ChunkView {
  sessionId: string;
  index: number;
  chunk: Chunk;
}

/** A chunk record as a view. */
export function chunkView(record: ChunkRecord): ChunkView {
  return { sessionId: record.sessionId, index: record.index, chunk: record.chunk };
}

/** An interrupt as the API shows it. */
export interface InterruptView {
  id: string;
  runId: string;
  nodeId: string;
  status: "pending" | "decided";
  request: unknown;
  decision: InterruptDecision | null;
  createdAt: string;
  decidedAt: string | null;
}

/** An interrupt record as a view. */
export function interruptView(record: InterruptRecord): InterruptView {
  return { ...record, createdAt: iso(record.createdAt), decidedAt: iso(record.decidedAt) };
}

/** A provider setting as the API shows it: `hasApiKey`, never the key. */
export interface ProviderView {
  name: string;
  kind: string;
  baseUrl: string | null;
  model: string | null;
  hasApiKey: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A provider setting (already without its key) as a view. */
export function providerView(record: ProviderSettingView): ProviderView {
  return {
    name: record.name,
    kind: record.kind,
    baseUrl: record.baseUrl,
    model: record.model,
    hasApiKey: record.hasApiKey,
    createdAt: iso(record.createdAt),
    updatedAt: iso(record.updatedAt),
  };
}

/** A tool call with side effects as the review panel shows it. */
export interface EffectView {
  id: string;
  runId: string;
  tool: string;
  args: unknown;
  idempotent: boolean;
  status: EffectStatus;
  result: unknown;
  error: string | null;
  createdAt: string;
  dispatchedAt: string | null;
  settledAt: string | null;
}

/** An effect-ledger record as a view (its internal idempotency key is left out). */
export function effectView(record: EffectRecord): EffectView {
  return {
    id: record.id,
    runId: record.runId,
    tool: record.tool,
    args: record.args,
    idempotent: record.idempotent,
    status: record.status,
    result: record.result,
    error: record.error,
    createdAt: iso(record.createdAt),
    dispatchedAt: iso(record.dispatchedAt),
    settledAt: iso(record.settledAt),
  };
}
