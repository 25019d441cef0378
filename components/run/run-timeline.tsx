"use client";
/**
 * The run's node executions as a waterfall: one row per committed step (node label, bar from its start to its
 * end on the run's time axis, retries, waiting), plus the step running now (its bar grows until it commits).
 * Linked with the graph: hovering a row highlights its sessions there, and a row lights up when its sessions are
 * hovered in the graph; clicking a row selects the session it produced. A forked run's steps taken from the record are
 * listed first, marked as replayed (a history icon, a hatched bar of their recorded duration). Rows are virtualised.
 *
 * The axis ends at the running step's growing end: a clock moves it twice a second. Bars are placed with CSS variables
 * of the list (`--tl-span`, the axis's length, and `--tl-running`, the running step's length, in ms), so the clock
 * writes those two and the running step's time and renders no row; rows are memoised, so a live step renders the rows
 * that changed (the new one, the ones whose link to the selection changed), not every visible row.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { Clock, History } from "lucide-react";
import { memo, useEffect, useMemo, useRef, useState, type CSSProperties } from "react";
import type { GraphSessionData } from "../run-state/live-graph";
import type { TimelineState } from "../run-state/timeline";
import { EmptyState } from "../ui/empty-state";
import { shortId } from "../ui/format";
import { StatusBadge } from "../ui/status-badge";
import { paneSizeOptions } from "../ui/virtual-pane-size";
import { ImportedTimeline } from "./imported-timeline";
import { TimelineRow } from "./timeline-row";
import { barGeometry, timelineAxis, timelineRows, type TimelineRow as StepRow } from "./timeline-rows";

/** Props of the timeline. */
export interface RunTimelineProps {
  timeline: TimelineState;
  /** The run's sessions in the order they were made (an imported run's timeline lists them instead of steps). */
  sessions: readonly GraphSessionData[];
  runStatus: string;
  runStartedAt: string | null;
  runFinishedAt: string | null;
  labels: Readonly<Record<string, string>>;
  hoveredSessions: ReadonlySet<string>;
  selectedSessionId: string | null;
  onHover: (sessionIds: readonly string[]) => void;
  onSelectSession: (sessionId: string) => void;
}


function millis(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

const COLUMNS = "grid-cols-[minmax(0,9rem)_minmax(0,1fr)_4.5rem] sm:grid-cols-[minmax(0,12rem)_minmax(0,1fr)_5rem]";

/** The running step's time until `now` (the clock's last tick). */
function RunningTime({ since, now }: { since: number; now: number }) {
  return <span className="text-right tabular text-muted">{millis(Math.max(0, now - since))}</span>;
}

interface StepRowProps {
  row: StepRow;
  /** The row's start on the axis, ms from its origin. */
  from: number;
  /** The row's offset in the virtual list, px. */
  top: number;
  linked: boolean;
  label: string;
  /** The clock's time (the running row only; 0 for the others). */
  now: number;
  onHover: (sessionIds: readonly string[]) => void;
  onSelectSession: (sessionId: string) => void;
}

function StepRowView({ row, from, top, linked, label, now, onHover, onSelectSession }: StepRowProps) {
  const replayedNote =
    row.replayed === null ? null : `Replayed from run ${shortId(row.replayed.fromRunId)}, step ${row.replayed.fromStepSeq}: no model call, no tool run in this run (recorded duration)`;
  const color = row.status === "failed" ? "var(--rath-status-failed)" : row.status === "running" ? "var(--rath-status-running)" : row.status === "waiting" ? "var(--rath-status-waiting)" : "var(--rath-accent)";
  const running = row.status === "running";
  const bar: CSSProperties = {
    ...barGeometry(from, running ? "var(--tl-running)" : row.end - row.start),
    // A replayed step: hatched, outlined — it happened in another run.
    background: row.replayed === null ? color : `repeating-linear-gradient(135deg, ${color} 0 3px, transparent 3px 6px)`,
    boxShadow: row.replayed === null ? undefined : `inset 0 0 0 1px ${color}`,
    opacity: linked ? 1 : 0.75,
  };
  return (
    <TimelineRow
      testId="timeline-step"
      start={top}
      columns={COLUMNS}
      linked={linked}
      sessions={row.outputs.length > 0 ? row.outputs : row.inputs}
      onHover={onHover}
      onSelect={() => {
        const target = row.outputs[row.outputs.length - 1] ?? row.inputs[row.inputs.length - 1];
        if (target !== undefined) onSelectSession(target);
      }}
      title={replayedNote ?? undefined}
      data={{ "data-node-id": row.nodeId, "data-status": row.status, "data-outputs": row.outputs.join(" "), "data-replayed": row.replayed === null ? undefined : row.replayed.part }}
    >
      <span className="flex min-w-0 items-center gap-1.5">
        <StatusBadge status={row.status} compact />
        <span className="min-w-0 truncate font-medium text-ink" title={`${label} (${row.nodeId})`}>
          {label}
        </span>
        {row.retries > 0 ? <span className="shrink-0 text-status-waiting">×{row.retries + 1}</span> : null}
        {replayedNote === null ? null : (
          <span data-testid="timeline-replayed" className="flex shrink-0 items-center gap-0.5 text-muted">
            <History className="size-3" aria-hidden="true" />
            <span className="hidden sm:inline">replayed</span>
            <span className="sr-only sm:hidden">replayed</span>
          </span>
        )}
      </span>
      <span className="relative h-3 min-w-0 rounded-sm bg-sunken">
        <span className={`absolute inset-y-0 rounded-sm ${running ? "animate-pulse" : ""}`} style={bar} />
      </span>
      {running ? <RunningTime since={row.start} now={now} /> : <span className="text-right tabular text-muted">{millis(row.end - row.start)}</span>}
    </TimelineRow>
  );
}

/** Whether a row draws the same (a row's object is new whenever the timeline changes; its content rarely is). */
function sameStepRow(previous: StepRowProps, next: StepRowProps): boolean {
  const a = previous.row;
  const b = next.row;
  const sameRow =
    a === b ||
    (a.key === b.key &&
      a.nodeId === b.nodeId &&
      a.start === b.start &&
      (a.end === b.end || a.status === "running") &&
      a.status === b.status &&
      a.retries === b.retries &&
      a.replayed === b.replayed &&
      a.outputs.join(" ") === b.outputs.join(" ") &&
      a.inputs.join(" ") === b.inputs.join(" "));
  return (
    sameRow &&
    previous.from === next.from &&
    previous.top === next.top &&
    previous.linked === next.linked &&
    previous.label === next.label &&
    previous.now === next.now &&
    previous.onHover === next.onHover &&
    previous.onSelectSession === next.onSelectSession
  );
}

const StepRowItem = memo(StepRowView, sameStepRow);

/** The waterfall. */
export function RunTimeline({ timeline, sessions, runStatus, runStartedAt, runFinishedAt, labels, hoveredSessions, selectedSessionId, onHover, onSelectSession }: RunTimelineProps) {
  const running = runStatus === "running" && timeline.next.length > 0;
  const [now, setNow] = useState(() => Date.now());
  // The running step's time as the clock last moved it: only its row renders for a tick.
  const rows = useMemo(() => timelineRows(timeline, running, Date.now()), [timeline, running]);
  const { origin, span } = timelineAxis(rows, runStartedAt, runFinishedAt);
  const runningRow = running ? rows.find((row) => row.status === "running") : undefined;
  const runningSince = runningRow?.start ?? null;

  const scroller = useRef<HTMLDivElement>(null);
  // A clock for the growing bar of the running step (no server request): it writes the axis's CSS variables and
  // moves the running row's time; the other rows are not rendered for it.
  const axis = useRef({ rows, runStartedAt, runFinishedAt });
  axis.current = { rows, runStartedAt, runFinishedAt };
  useEffect(() => {
    if (!running || runningSince === null) return;
    const timer = window.setInterval(() => {
      const at = Date.now();
      const { rows: current, runStartedAt: started, runFinishedAt: finished } = axis.current;
      const grown = timelineAxis(current, started, finished, at);
      const element = scroller.current;
      if (element !== null) {
        element.style.setProperty("--tl-span", String(grown.span));
        element.style.setProperty("--tl-running", String(Math.max(0, at - runningSince)));
      }
      setNow(at);
    }, 500);
    return () => window.clearInterval(timer);
  }, [running, runningSince]);

  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => 26, overscan: 10, ...paneSizeOptions("timeline") });

  if (rows.length === 0 && timeline.imported !== null) {
    return (
      <ImportedTimeline
        file={timeline.imported.file}
        sessions={sessions}
        labels={labels}
        hoveredSessions={hoveredSessions}
        selectedSessionId={selectedSessionId}
        onHover={onHover}
        onSelectSession={onSelectSession}
      />
    );
  }
  if (rows.length === 0) {
    return (
      <EmptyState icon={Clock} title="No steps yet" testId="timeline-empty">
        Node executions appear here as the run commits them.
      </EmptyState>
    );
  }
  const runningFor = runningRow === undefined ? 0 : Math.max(0, runningRow.end - runningRow.start);
  return (
    <div
      ref={scroller}
      data-testid="run-timeline"
      className="h-full min-h-0 overflow-y-auto overflow-x-hidden [contain:strict]"
      style={{ ["--tl-span" as string]: String(span), ["--tl-running" as string]: String(runningFor) }}
      onMouseLeave={() => onHover([])}
    >
      <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index] as StepRow;
          const linked = row.outputs.some((id) => hoveredSessions.has(id)) || (selectedSessionId !== null && row.outputs.includes(selectedSessionId));
          return (
            <StepRowItem
              key={row.key}
              row={row}
              from={row.start - origin}
              top={item.start}
              linked={linked}
              label={labels[row.nodeId] ?? row.nodeId}
              now={row.status === "running" ? Math.max(now, row.end) : 0}
              onHover={onHover}
              onSelectSession={onSelectSession}
            />
          );
        })}
      </div>
    </div>
  );
}
