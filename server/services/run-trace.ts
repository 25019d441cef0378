/**
 * A run as an OpenTelemetry trace, following the GenAI semantic conventions (Development status, as of
 * semantic-conventions 1.41): one `invoke_workflow` span for the run; under it one span per node execution
 * (`run.step.completed` events: `invoke_agent <name>` for agent nodes, `<type> <node id>` for the others); under
 * each, one `chat <model>` span per model call (the assistant chunks the node's sessions added, with
 * `gen_ai.request.model` and `gen_ai.usage.input_tokens`/`output_tokens`) and one `execute_tool <name>` span per tool
 * call (tool_result chunks, with `gen_ai.tool.name`, `gen_ai.tool.call.id`, and `error.type` when it failed).
 * Times come from the record: a step's start and end, a chunk's `meta.at` minus its latency or tool duration.
 * Ids are derived from the run id (trace) and each span's place in the run, so exporting twice gives the same
 * ids and a receiver can tell a re-sent span. `buildRunTrace` is pure; `loadRunTrace` reads what it needs.
 */
import { createHash } from "node:crypto";
import type { Chunk } from "../../runtime/session/chunk";
import type { Database } from "../db/database";
import { sessionGraph } from "../db/session-store";
import type { RunEventRecord } from "../db/run-events";
import { requireRun } from "./run-service";
import { allChunks, allEvents } from "./transfer-service";
import { findRevision, getWorkflowDetail } from "./workflow-service";

/** An attribute value as OTLP carries it. */
export type TraceAttributeValue = string | number | boolean | readonly string[];

/** One span of a run's trace. */
export interface TraceSpan {
  /** 16 hex characters. */
  spanId: string;
  parentSpanId: string | null;
  name: string;
  /** `client` for calls to a model; `internal` for everything that runs in the engine. */
  kind: "internal" | "client";
  startMs: number;
  endMs: number;
  attributes: Readonly<Record<string, TraceAttributeValue>>;
  status: { code: "unset" | "ok" | "error"; message?: string };
}

/** A run's trace: its id (32 hex characters) and spans, parents before children. */
export interface RunTrace {
  traceId: string;
  runId: string;
  spans: TraceSpan[];
}

/** What `buildRunTrace` reads: plain values, as stored. */
export interface RunTraceInput {
  run: { id: string; status: string; createdAt: string; startedAt: string | null; finishedAt: string | null; error: unknown };
  workflowName: string;
  /** The revision's spec (nodes with id, type, label, config), or null when it is gone. */
  spec: unknown;
  events: readonly Pick<RunEventRecord, "seq" | "type" | "payload" | "at">[];
  /** Each session with the chunks it added itself (index >= inherited), and where they start. */
  sessions: ReadonlyArray<{ id: string; nodeId: string | null; ownChunks: ReadonlyArray<{ index: number; chunk: Chunk }> }>;
}

interface SpecNode {
  id: string;
  type: string;
  label: string | null;
  name: string | null;
  provider: string | null;
  model: string | null;
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

function specNodes(spec: unknown): { nodes: Map<string, SpecNode>; defaultProvider: string | null; defaultModel: string | null } {
  const record = typeof spec === "object" && spec !== null ? (spec as Record<string, unknown>) : {};
  const settings = typeof record.settings === "object" && record.settings !== null ? (record.settings as Record<string, unknown>) : {};
  const nodes = new Map<string, SpecNode>();
  for (const node of Array.isArray(record.nodes) ? record.nodes : []) {
    if (typeof node !== "object" || node === null) continue;
    const entry = node as Record<string, unknown>;
    const config = typeof entry.config === "object" && entry.config !== null ? (entry.config as Record<string, unknown>) : {};
    const id = text(entry.id);
    if (id === null) continue;
    nodes.set(id, { id, type: text(entry.type) ?? "node", label: text(entry.label), name: text(config.name), provider: text(config.provider), model: text(config.model) });
  }
  return { nodes, defaultProvider: text(settings.defaultProvider), defaultModel: text(settings.defaultModel) };
}

function hexId(seed: string, length: 16 | 32): string {
  return createHash("sha256").update(seed, "utf8").digest("hex").slice(0, length);
}

function timeOf(value: unknown, fallback: number): number {
  const parsed = typeof value === "string" ? Date.parse(value) : Number.NaN;
  return Number.isFinite(parsed) ? parsed : fallback;
}

interface StepWindow {
  span: TraceSpan;
  nodeId: string;
  startMs: number;
  endMs: number;
}

/** The step of `nodeId` whose window holds `atMs` (else the last one that started before it, else the first). */
function stepFor(steps: readonly StepWindow[], nodeId: string | null, atMs: number): StepWindow | null {
  const candidates = steps.filter((step) => step.nodeId === nodeId);
  const holding = candidates.find((step) => atMs >= step.startMs && atMs <= step.endMs);
  if (holding) return holding;
  const before = candidates.filter((step) => step.startMs <= atMs);
  return before[before.length - 1] ?? candidates[0] ?? null;
}

function errorMessage(error: unknown): string | undefined {
  if (typeof error === "string") return error;
  if (typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string") return (error as { message: string }).message;
  return undefined;
}

/** The run's trace (see the module comment). */
export function buildRunTrace(input: RunTraceInput): RunTrace {
  const runId = input.run.id;
  const traceId = hexId(`rath-trace:${runId}`, 32);
  const spanId = (key: string) => hexId(`rath-span:${runId}:${key}`, 16);
  const { nodes, defaultProvider, defaultModel } = specNodes(input.spec);
  const lastEventMs = input.events.reduce((latest, event) => Math.max(latest, event.at.getTime()), 0);
  const runStart = timeOf(input.run.startedAt, timeOf(input.run.createdAt, lastEventMs));
  const runEnd = timeOf(input.run.finishedAt, Math.max(lastEventMs, runStart));
  const failed = ["failed", "timed_out"].includes(input.run.status);
  const failure = errorMessage(input.run.error);
  const runSpan: TraceSpan = {
    spanId: spanId("run"),
    parentSpanId: null,
    name: `invoke_workflow ${input.workflowName}`,
    kind: "internal",
    startMs: runStart,
    endMs: Math.max(runEnd, runStart),
    attributes: { "gen_ai.operation.name": "invoke_workflow", "gen_ai.workflow.name": input.workflowName, "rath.run.id": runId, "rath.run.status": input.run.status },
    status: failed ? { code: "error", ...(failure === undefined ? {} : { message: failure }) } : input.run.status === "succeeded" ? { code: "ok" } : { code: "unset" },
  };
  const spans: TraceSpan[] = [runSpan];
  const steps: StepWindow[] = [];
  for (const event of input.events) {
    if (event.type !== "run.step.completed") continue;
    const nodeId = text(event.payload.node_id);
    if (nodeId === null) continue;
    const node = nodes.get(nodeId);
    const startMs = timeOf(event.payload.started_at, event.at.getTime());
    const endMs = Math.max(startMs, timeOf(event.payload.ended_at, event.at.getTime()));
    const agentName = node?.name ?? node?.label ?? nodeId;
    const stepSeq = typeof event.payload.step_seq === "number" ? event.payload.step_seq : event.seq;
    const isAgent = node?.type === "agent";
    const span: TraceSpan = {
      spanId: spanId(`step:${stepSeq}`),
      parentSpanId: runSpan.spanId,
      name: isAgent ? `invoke_agent ${agentName}` : `${node?.type ?? "node"} ${nodeId}`,
      kind: "internal",
      startMs,
      endMs,
      attributes: {
        ...(isAgent ? { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": agentName } : {}),
        "rath.node.id": nodeId,
        "rath.node.type": node?.type ?? "unknown",
        "rath.step.seq": stepSeq,
      },
      status: { code: "ok" },
    };
    spans.push(span);
    steps.push({ span, nodeId, startMs, endMs });
  }
  for (const session of input.sessions) {
    const node = session.nodeId === null ? undefined : nodes.get(session.nodeId);
    for (const { index, chunk } of session.ownChunks) {
      const atMs = timeOf(chunk.meta.at, runEnd);
      const parent = stepFor(steps, session.nodeId, atMs)?.span ?? runSpan;
      const where = { "rath.session.id": session.id, "rath.chunk.index": index };
      if (chunk.kind === "assistant" && (chunk.meta.model !== undefined || chunk.meta.usage !== undefined)) {
        const model = chunk.meta.model ?? node?.model ?? defaultModel ?? "unknown";
        const provider = node?.provider ?? defaultProvider;
        const usage = chunk.meta.usage;
        spans.push({
          spanId: spanId(`chunk:${session.id}:${index}`),
          parentSpanId: parent.spanId,
          name: `chat ${model}`,
          kind: "client",
          startMs: atMs - (chunk.meta.latency_ms ?? 0),
          endMs: atMs,
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": model,
            ...(provider === null ? {} : { "gen_ai.provider.name": provider }),
            ...(usage === undefined ? {} : { "gen_ai.usage.input_tokens": usage.prompt_tokens, "gen_ai.usage.output_tokens": usage.completion_tokens }),
            ...(chunk.payload.tool_calls && chunk.payload.tool_calls.length > 0 ? { "gen_ai.response.finish_reasons": ["tool_calls"] } : {}),
            ...where,
          },
          status: { code: "unset" },
        });
      }
      if (chunk.kind === "tool_result") {
        const evidence = chunk.meta.evidence;
        spans.push({
          spanId: spanId(`chunk:${session.id}:${index}`),
          parentSpanId: parent.spanId,
          name: `execute_tool ${chunk.payload.name}`,
          kind: "internal",
          startMs: atMs - (evidence?.duration_ms ?? 0),
          endMs: atMs,
          attributes: {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": chunk.payload.name,
            "gen_ai.tool.call.id": chunk.payload.tool_call_id,
            "gen_ai.tool.type": "function",
            ...(evidence?.ok === false ? { "error.type": evidence.error_kind ?? "tool_error" } : {}),
            ...(evidence?.sandbox ? { "rath.sandbox.backend": evidence.sandbox.backend } : {}),
            ...where,
          },
          status: evidence?.ok === false ? { code: "error", message: evidence.error_kind ?? "the tool failed" } : { code: "unset" },
        });
      }
    }
  }
  return { traceId, runId, spans };
}

/** Reads what `buildRunTrace` needs from the store and builds the run's trace. */
export async function loadRunTrace(database: Database, runId: string): Promise<RunTrace> {
  const run = await requireRun(database, runId);
  const [workflowName, revision, events, graph] = await Promise.all([
    getWorkflowDetail(database, run.workflowId).then(
      (detail) => detail.workflow.name,
      () => run.workflowId,
    ),
    findRevision(database, run.revisionId),
    allEvents(database, runId),
    sessionGraph(database, runId),
  ]);
  const sessions = await Promise.all(
    graph.sessions.map(async (session) => {
      const chunks = await allChunks(database, session.id, session.chunkCount);
      const ownChunks = chunks.map((chunk, index) => ({ index, chunk })).slice(session.inheritedChunkCount);
      return { id: session.id, nodeId: session.nodeId, ownChunks };
    }),
  );
  return buildRunTrace({
    run: {
      id: run.id,
      status: run.status,
      createdAt: run.createdAt.toISOString(),
      startedAt: run.startedAt?.toISOString() ?? null,
      finishedAt: run.finishedAt?.toISOString() ?? null,
      error: run.error,
    },
    workflowName,
    spec: revision?.spec ?? null,
    events,
    sessions,
  });
}
