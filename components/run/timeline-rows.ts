/**
 * Pure: the waterfall's rows from the folded timeline — one per step (a step a fork replayed from the record keeps its
 * recorded duration, moved on the time axis so the replayed part ends where this run took it over), the step running
 * now (its bar grows until it commits), and the run's failure.
 */
import type { TimelineState, TimelineStep } from "../run-state/timeline";

/** One row of the waterfall. */
export interface TimelineRow {
  key: string;
  nodeId: string;
  start: number;
  end: number;
  status: string;
  outputs: readonly string[];
  inputs: readonly string[];
  retries: number;
  /** Taken from a run's record (no model call, no tool run in this run); null for a step this run executed. */
  replayed: TimelineStep["replayed"];
}

/** How far replayed steps move: so that the last one ends when this run replayed them (0 when there are none). */
function replayShift(timeline: TimelineState): number {
  if (timeline.replayedAt === null) return 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const step of timeline.steps) if (step.replayed !== null) end = Math.max(end, step.endedAt, step.startedAt);
  return Number.isFinite(end) ? timeline.replayedAt - end : 0;
}

/** The rows; `running` (the run is running with a step ready) adds the running step, drawn until `now`. */
export function timelineRows(timeline: TimelineState, running: boolean, now: number): TimelineRow[] {
  const shift = replayShift(timeline);
  const rows: TimelineRow[] = timeline.steps.map((step) => {
    const offset = step.replayed === null ? 0 : shift;
    return {
      key: step.replayed === null ? `s${step.stepSeq}` : `r${step.replayed.fromRunId}:${step.replayed.fromStepSeq}`,
      nodeId: step.nodeId,
      start: step.startedAt + offset,
      end: Math.max(step.endedAt, step.startedAt) + offset,
      status: step.waiting ? "waiting" : "succeeded",
      outputs: step.outputs,
      inputs: step.inputs,
      retries: step.failedAttempts,
      replayed: step.replayed,
    };
  });
  const first = timeline.next[0];
  if (running && first !== undefined) {
    const since = timeline.nextSince ?? now;
    rows.push({ key: "running", nodeId: first.nodeId, start: since, end: Math.max(now, since), status: "running", outputs: [], inputs: first.inputs, retries: timeline.retrying[first.nodeId]?.attempts ?? 0, replayed: null });
  }
  if (timeline.failure !== null) {
    const at = timeline.failure.at;
    rows.push({ key: "failure", nodeId: timeline.failure.nodeId ?? "run", start: timeline.nextSince ?? at, end: at, status: "failed", outputs: [], inputs: timeline.failure.inputs, retries: 0, replayed: null });
  }
  return rows;
}
