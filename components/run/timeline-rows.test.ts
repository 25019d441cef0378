import { describe, expect, it } from "vitest";
import { runEvent } from "../run-state/testing-sessions";
import { applyTimelineEvents, EMPTY_TIMELINE } from "../run-state/timeline";
import { barGeometry, timelineAxis, timelineRows, type TimelineRow } from "./timeline-rows";

const replayed = (seq: number, node: string, fromStep: number, started: string, ended: string, part = "prefix") =>
  runEvent(seq, "run.step.replayed", { node_id: node, from_run_id: "run_original", from_step_seq: fromStep, started_at: started, ended_at: ended, inputs: [], outputs: [`${node}-1`], waiting: false, part }, "2026-01-02T10:00:00.000Z");

describe("a forked run's timeline", () => {
  // The original ran input and writer on Jan 1st; the fork took them over on Jan 2nd at 10:00, then ran the editor.
  const timeline = applyTimelineEvents(EMPTY_TIMELINE, [
    runEvent(1, "run.claimed", {}, "2026-01-02T09:59:59.000Z"),
    replayed(2, "input", 1, "2026-01-01T08:00:00.000Z", "2026-01-01T08:00:00.010Z"),
    replayed(3, "writer", 2, "2026-01-01T08:00:00.010Z", "2026-01-01T08:00:02.010Z"),
    replayed(4, "cons", 4, "2026-01-01T08:00:02.010Z", "2026-01-01T08:00:03.010Z", "branch"),
    runEvent(5, "run.step.completed", { node_id: "editor", step_seq: 2, started_at: "2026-01-02T10:00:00.000Z", ended_at: "2026-01-02T10:00:01.000Z", outputs: ["editor-1"] }),
  ]);

  it("folds replayed steps first, with where they came from, then the live ones", () => {
    expect(timeline.steps.map((step) => [step.nodeId, step.replayed])).toEqual([
      ["input", { fromRunId: "run_original", fromStepSeq: 1, part: "prefix" }],
      ["writer", { fromRunId: "run_original", fromStepSeq: 2, part: "prefix" }],
      ["cons", { fromRunId: "run_original", fromStepSeq: 4, part: "branch" }],
      ["editor", null],
    ]);
    expect(timeline.replayedAt).toBe(Date.parse("2026-01-02T10:00:00.000Z"));
  });

  it("rows keep the recorded durations and move the replayed part to end where the fork took over, with distinct keys", () => {
    const rows = timelineRows(timeline, false, 0);
    const takeover = Date.parse("2026-01-02T10:00:00.000Z");
    expect(rows.map((row) => [row.nodeId, row.end - row.start, row.start - takeover])).toEqual([
      ["input", 10, -3010],
      ["writer", 2000, -3000],
      ["cons", 1000, -1000],
      ["editor", 1000, 0],
    ]);
    expect(new Set(rows.map((row) => row.key)).size).toBe(4);
    expect(rows.map((row) => row.replayed?.part ?? null)).toEqual(["prefix", "prefix", "branch", null]);
  });

  it("a run that replayed nothing keeps its own times", () => {
    const plain = applyTimelineEvents(EMPTY_TIMELINE, [runEvent(1, "run.step.completed", { node_id: "a", step_seq: 1, started_at: "2026-01-01T00:00:00.000Z", ended_at: "2026-01-01T00:00:01.000Z" })]);
    expect(plain.replayedAt).toBeNull();
    expect(timelineRows(plain, false, 0)[0]?.start).toBe(Date.parse("2026-01-01T00:00:00.000Z"));
  });
});

describe("the waterfall's axis", () => {
  const row = (key: string, start: number, end: number, status = "succeeded"): TimelineRow => ({ key, nodeId: key, start, end, status, outputs: [], inputs: [], retries: 0, replayed: null });
  const rows = [row("s1", 1000, 1500), row("s2", 1500, 2200), row("running", 2200, 2600, "running")];

  it("starts at the run's start or its first row, and ends at its last end or the run's end", () => {
    expect(timelineAxis(rows, null, null)).toEqual({ origin: 1000, span: 1600 });
    expect(timelineAxis(rows, new Date(900).toISOString(), new Date(3000).toISOString())).toEqual({ origin: 900, span: 2100 });
    expect(timelineAxis([], null, null).span).toBe(1);
  });

  it("moves the running row's end to the clock's time (as timelineRows draws it at that time)", () => {
    expect(timelineAxis(rows, null, null, 4000)).toEqual({ origin: 1000, span: 3000 });
    expect(timelineAxis(rows, null, null, 2100)).toEqual({ origin: 1000, span: 1200 });
    const drawn = timelineRows({ ...EMPTY_TIMELINE, next: [{ nodeId: "a", inputs: [] }], nextSince: 2200 }, true, 4000);
    expect(timelineAxis(drawn, new Date(1000).toISOString(), null)).toEqual(timelineAxis(drawn, new Date(1000).toISOString(), null, 4000));
  });

  it("places a bar as the percentages of the axis, at least 0.6 % wide and never past its end", () => {
    expect(barGeometry(250, 500)).toEqual({
      left: "min(calc(100% * 250 / var(--tl-span)), 99.4%)",
      width: "min(max(0.6%, calc(100% * 500 / var(--tl-span))), calc(100% - min(calc(100% * 250 / var(--tl-span)), 99.4%)))",
    });
    expect(barGeometry(0, "var(--tl-running)").width).toContain("calc(100% * var(--tl-running) / var(--tl-span))");
  });
});
