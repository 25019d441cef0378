/**
 * The canvas's view of a live run: each node's status (queued, running, waiting, succeeded, failed) folded from
 * the run's events — `run.step.completed` (the node finished; `next` is queued, its first entry runs now),
 * `run.interrupt.created` (waiting for a person), `run.step.attempt.failed` (retrying, with the message),
 * `run.execution.failed` (the failing node and its error) and `run.state.changed`. Pure and idempotent per seq.
 */
import type { NodeRunStatus } from "./flow-projection";

/** One event as `runs.onEvents` delivers it. */
export interface OverlayEvent {
  seq: number;
  type: string;
  payload: Record<string, unknown>;
}

/** The folded state. */
export interface RunOverlayState {
  readonly runStatus: string;
  readonly nodes: ReadonlyMap<string, { status: NodeRunStatus; detail?: string }>;
  /** Nodes ready to run, in order (the first runs while the run is running). */
  readonly ready: readonly string[];
  readonly output: string | null;
  readonly error: string | null;
  readonly lastSeq: number;
}

const TERMINAL = new Set(["succeeded", "failed", "cancelled", "timed_out"]);

/** The state before any event: the entry nodes queued. */
export function initialOverlay(entryNodeIds: readonly string[]): RunOverlayState {
  return { runStatus: "queued", nodes: new Map(entryNodeIds.map((id) => [id, { status: "queued" as const }])), ready: [...entryNodeIds], output: null, error: null, lastSeq: 0 };
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function withRunning(nodes: Map<string, { status: NodeRunStatus; detail?: string }>, ready: readonly string[], runStatus: string): void {
  for (const id of ready) {
    const current = nodes.get(id);
    if (current?.status === "running" && current.detail === undefined) nodes.set(id, { status: "queued" });
  }
  const first = ready[0];
  if (runStatus === "running" && first !== undefined) {
    const current = nodes.get(first);
    nodes.set(first, { status: "running", ...(current?.status === "running" && current.detail !== undefined ? { detail: current.detail } : {}) });
  }
}

/** Folds events (already-seen seqs are skipped). */
export function applyOverlayEvents(state: RunOverlayState, events: readonly OverlayEvent[]): RunOverlayState {
  let { runStatus, ready, output, error, lastSeq } = state;
  const nodes = new Map(state.nodes);
  for (const event of events) {
    if (event.seq <= lastSeq) continue;
    lastSeq = event.seq;
    const payload = event.payload;
    switch (event.type) {
      case "run.state.changed": {
        runStatus = text(payload.to) ?? runStatus;
        if (TERMINAL.has(runStatus)) {
          for (const [id, value] of nodes) if (value.status === "queued" || value.status === "running") nodes.delete(id);
          ready = [];
        } else withRunning(nodes, ready, runStatus);
        break;
      }
      case "run.step.completed": {
        const nodeId = text(payload.node_id);
        const next = Array.isArray(payload.next) ? payload.next.map((entry) => text((entry as Record<string, unknown>)?.node_id)).filter((id): id is string => id !== undefined) : [];
        if (nodeId !== undefined) nodes.set(nodeId, { status: payload.waiting === true ? "waiting" : "succeeded" });
        for (const id of next) nodes.set(id, { status: "queued" });
        ready = next;
        withRunning(nodes, ready, runStatus);
        break;
      }
      case "run.interrupt.created": {
        const nodeId = text(payload.node_id);
        if (nodeId !== undefined) nodes.set(nodeId, { status: "waiting", detail: "waiting for a decision" });
        break;
      }
      case "run.step.attempt.failed": {
        const nodeId = text(payload.node_id);
        if (nodeId !== undefined) nodes.set(nodeId, { status: "running", detail: `attempt ${typeof payload.attempt === "number" ? payload.attempt : "?"} failed: ${text(payload.message) ?? "error"}` });
        break;
      }
      case "run.execution.failed": {
        const nodeId = text(payload.node_id);
        error = text(payload.message) ?? text(payload.code) ?? "the run failed";
        if (nodeId !== undefined) nodes.set(nodeId, { status: "failed", detail: error });
        break;
      }
      case "run.execution.completed": {
        const outputText = text(payload.text) ?? (Array.isArray(payload.outputs) ? text((payload.outputs[0] as Record<string, unknown> | undefined)?.text) : undefined);
        if (outputText !== undefined) output = outputText;
        break;
      }
      default:
        break;
    }
  }
  return { runStatus, nodes, ready, output, error, lastSeq };
}
