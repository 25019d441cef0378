/**
 * The run's node executions as a timeline, folded from its events: one entry per committed step
 * (`run.step.completed`: node, start, end, input and output sessions), the steps a forked run took from the
 * original's record (`run.step.replayed`: recorded times, no model call in this run), failed attempts, the run's failure, and what
 * runs next (with its input sessions, so the graph can show the running node where it will attach), and whether the
 * run was imported from a file (it then has no steps of its own). Pure.
 */
import type { RunEventData } from "./live-graph";

/** The event types the timeline reads (the API filters `runs.events` by them). */
export const TIMELINE_EVENT_TYPES = ["run.step.replayed", "run.step.completed", "run.step.attempt.failed", "run.execution.failed", "run.claimed", "run.imported"] as const;

/** One committed step. */
export interface TimelineStep {
  stepSeq: number;
  nodeId: string;
  startedAt: number;
  endedAt: number;
  inputs: readonly string[];
  outputs: readonly string[];
  /** The step suspended the run (an approval waiting for a person). */
  waiting: boolean;
  /** Attempts that failed before this one succeeded. */
  failedAttempts: number;
  /** A step a fork took from a run's record (its times are that run's), or null for a step this run executed. */
  replayed: { fromRunId: string; fromStepSeq: number; part: "prefix" | "branch" } | null;
}

/** A step that is ready to run (or running): its node and input sessions. */
export interface PendingStep {
  nodeId: string;
  inputs: readonly string[];
}

/** The run's failure as the last event said it. */
export interface TimelineFailure {
  nodeId: string | null;
  code: string;
  message: string;
  at: number;
  /** The sessions the failing step received (when the timeline knew the step). */
  inputs: readonly string[];
}

/** The folded timeline. */
export interface TimelineState {
  steps: readonly TimelineStep[];
  /** Steps ready after the last committed one; the first runs now while the run is running. */
  next: readonly PendingStep[];
  /** When the last step ended (or the run was claimed): since when `next[0]` has been running. */
  nextSince: number | null;
  failure: TimelineFailure | null;
  /** Failed attempts of the step in progress, by node. */
  retrying: Readonly<Record<string, { attempts: number; message: string }>>;
  /** The run was imported from a file (`run.imported`): it never executed here; the file's name when known. */
  imported: { file: string | null } | null;
  /** When the run took its replayed steps from the record (its first commit), or null when it has none. */
  replayedAt: number | null;
  lastSeq: number;
}

/** A timeline with nothing in it. */
export const EMPTY_TIMELINE: TimelineState = { steps: [], next: [], nextSince: null, failure: null, retrying: {}, imported: null, replayedAt: null, lastSeq: 0 };

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : [];
}

function time(value: unknown, fallback: string): number {
  const parsed = typeof value === "string" ? Date.parse(value) : Number.NaN;
  return Number.isFinite(parsed) ? parsed : Date.parse(fallback);
}

function pendingSteps(value: unknown): PendingStep[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown) => {
    if (typeof entry !== "object" || entry === null) return [];
    const record = entry as Record<string, unknown>;
    return typeof record.node_id === "string" ? [{ nodeId: record.node_id, inputs: strings(record.inputs) }] : [];
  });
}

/** The timeline after `events` (any types; others are ignored). Idempotent: events at or before `lastSeq` are skipped. */
export function applyTimelineEvents(state: TimelineState, events: readonly RunEventData[]): TimelineState {
  let next = state;
  let steps: TimelineStep[] | null = null;
  for (const event of events) {
    if (event.seq <= next.lastSeq) continue;
    const payload = event.payload;
    switch (event.type) {
      case "run.imported":
        next = { ...next, imported: { file: typeof payload.file === "string" ? payload.file : null }, lastSeq: event.seq };
        break;
      case "run.claimed":
        next = { ...next, nextSince: Date.parse(event.at), lastSeq: event.seq };
        break;
      case "run.step.completed": {
        if (typeof payload.node_id !== "string") break;
        steps ??= [...next.steps];
        const nodeId = payload.node_id;
        steps.push({
          stepSeq: typeof payload.step_seq === "number" ? payload.step_seq : steps.length + 1,
          nodeId,
          startedAt: time(payload.started_at, event.at),
          endedAt: time(payload.ended_at, event.at),
          inputs: strings(payload.inputs),
          outputs: strings(payload.outputs),
          waiting: payload.waiting === true,
          failedAttempts: next.retrying[nodeId]?.attempts ?? 0,
          replayed: null,
        });
        const retrying = Object.fromEntries(Object.entries(next.retrying).filter(([key]) => key !== nodeId));
        next = { ...next, steps, next: pendingSteps(payload.next), nextSince: time(payload.ended_at, event.at), retrying, lastSeq: event.seq };
        break;
      }
      case "run.step.replayed": {
        if (typeof payload.node_id !== "string" || typeof payload.from_run_id !== "string" || typeof payload.from_step_seq !== "number") break;
        steps ??= [...next.steps];
        const at = Date.parse(event.at);
        steps.push({
          stepSeq: payload.from_step_seq,
          nodeId: payload.node_id,
          startedAt: time(payload.started_at, event.at),
          endedAt: time(payload.ended_at, event.at),
          inputs: strings(payload.inputs),
          outputs: strings(payload.outputs),
          waiting: payload.waiting === true,
          failedAttempts: 0,
          replayed: { fromRunId: payload.from_run_id, fromStepSeq: payload.from_step_seq, part: payload.part === "branch" ? "branch" : "prefix" },
        });
        next = { ...next, replayedAt: next.replayedAt ?? at, lastSeq: event.seq };
        break;
      }
      case "run.step.attempt.failed": {
        if (typeof payload.node_id !== "string") break;
        const previous = next.retrying[payload.node_id]?.attempts ?? 0;
        const message = typeof payload.message === "string" ? payload.message : "attempt failed";
        next = { ...next, retrying: { ...next.retrying, [payload.node_id]: { attempts: previous + 1, message } }, lastSeq: event.seq };
        break;
      }
      case "run.execution.failed": {
        const nodeId = typeof payload.node_id === "string" ? payload.node_id : null;
        const inputs = nodeId === null ? [] : (next.next.find((pending) => pending.nodeId === nodeId)?.inputs ?? []);
        next = {
          ...next,
          failure: {
            nodeId,
            code: typeof payload.code === "string" ? payload.code : "failed",
            message: typeof payload.message === "string" ? payload.message : "the run failed",
            at: Date.parse(event.at),
            inputs,
          },
          lastSeq: event.seq,
        };
        break;
      }
      default:
        next = { ...next, lastSeq: event.seq };
    }
  }
  return steps === null ? next : { ...next, steps };
}
