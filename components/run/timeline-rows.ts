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

/** The waterfall's time axis: where it starts and how long it is (ms); the running row ends at `now` when given. */
export function timelineAxis(rows: readonly TimelineRow[], runStartedAt: string | null, runFinishedAt: string | null, now?: number): { origin: number; span: number } {
  let origin = runStartedAt === null ? Number.POSITIVE_INFINITY : Date.parse(runStartedAt);
  let finish = runFinishedAt === null ? 0 : Date.parse(runFinishedAt);
  for (const row of rows) {
    origin = Math.min(origin, row.start);
    finish = Math.max(finish, row.status === "running" && now !== undefined ? Math.max(now, row.start) : row.end);
  }
  return { origin, span: Math.max(1, finish - origin) };
}

/**
 * A bar's place on the axis as CSS, against the list's `--tl-span` (the axis's length in ms): `from` ms after the
 * axis's start, `length` ms long (a number, or a CSS variable for the running row's growing length). At least 0.6 %
 * wide, starting at most at 99.4 %, never past the end.
 */
export function barGeometry(from: number, length: number | string): { left: string; width: string } {
  const left = `min(calc(100% * ${from} / var(--tl-span)), 99.4%)`;
  return { left, width: `min(max(0.6%, calc(100% * ${length} / var(--tl-span))), calc(100% - ${left}))` };
}
