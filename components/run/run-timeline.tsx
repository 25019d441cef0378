"use client";
/**
 * The run's node executions as a waterfall: one row per committed step (node label, bar from its start to its
 * end on the run's time axis, retries, waiting), plus the step running now (its bar grows until it commits).
 * Linked with the graph: hovering a row highlights its sessions there, and a row lights up when its sessions are
 * hovered in the graph; clicking a row selects the session it produced. A forked run's steps taken from the record are
 * listed first, marked as replayed (a history icon, a hatched bar of their recorded duration). Rows are virtualised.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { Clock, History } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import type { GraphSessionData } from "../run-state/live-graph";
import type { TimelineState } from "../run-state/timeline";
import { EmptyState } from "../ui/empty-state";
import { shortId } from "../ui/format";
import { StatusBadge } from "../ui/status-badge";
import { paneSizeOptions } from "../ui/virtual-pane-size";
import { ImportedTimeline } from "./imported-timeline";
import { TimelineRow } from "./timeline-row";
import { timelineRows, type TimelineRow as StepRow } from "./timeline-rows";

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

/** The waterfall. */
export function RunTimeline({ timeline, sessions, runStatus, runStartedAt, runFinishedAt, labels, hoveredSessions, selectedSessionId, onHover, onSelectSession }: RunTimelineProps) {
  const running = runStatus === "running" && timeline.next.length > 0;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    // A clock for the growing bar of the running step (no server request).
    const timer = window.setInterval(() => setNow(Date.now()), 500);
    return () => window.clearInterval(timer);
  }, [running]);

  const rows = useMemo(() => timelineRows(timeline, running, now), [timeline, running, now]);

  const origin = rows.reduce((min, row) => Math.min(min, row.start), runStartedAt === null ? Number.POSITIVE_INFINITY : Date.parse(runStartedAt));
  const finish = rows.reduce((max, row) => Math.max(max, row.end), runFinishedAt === null ? 0 : Date.parse(runFinishedAt));
  const span = Math.max(1, finish - origin);

  const scroller = useRef<HTMLDivElement>(null);
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
  return (
    <div ref={scroller} data-testid="run-timeline" className="h-full min-h-0 overflow-y-auto overflow-x-hidden [contain:strict]" onMouseLeave={() => onHover([])}>
      <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index] as StepRow;
          const left = ((row.start - origin) / span) * 100;
          const width = Math.max(0.6, ((row.end - row.start) / span) * 100);
          const linked = row.outputs.some((id) => hoveredSessions.has(id)) || (selectedSessionId !== null && row.outputs.includes(selectedSessionId));
          const label = labels[row.nodeId] ?? row.nodeId;
          const replayedNote =
            row.replayed === null
              ? null
              : `Replayed from run ${shortId(row.replayed.fromRunId)}, step ${row.replayed.fromStepSeq}: no model call, no tool run in this run (recorded duration)`;
          const color = row.status === "failed" ? "var(--rath-status-failed)" : row.status === "running" ? "var(--rath-status-running)" : row.status === "waiting" ? "var(--rath-status-waiting)" : "var(--rath-accent)";
          return (
            <TimelineRow
              key={row.key}
              testId="timeline-step"
              start={item.start}
              columns="grid-cols-[minmax(0,9rem)_minmax(0,1fr)_4.5rem] sm:grid-cols-[minmax(0,12rem)_minmax(0,1fr)_5rem]"
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
                <span
                  className={`absolute inset-y-0 rounded-sm ${row.status === "running" ? "animate-pulse" : ""}`}
                  style={{
                    left: `${Math.min(left, 99.4)}%`,
                    width: `${Math.min(width, 100 - Math.min(left, 99.4))}%`,
                    // A replayed step: hatched, outlined — it happened in another run.
                    background: row.replayed === null ? color : `repeating-linear-gradient(135deg, ${color} 0 3px, transparent 3px 6px)`,
                    boxShadow: row.replayed === null ? undefined : `inset 0 0 0 1px ${color}`,
                    opacity: linked ? 1 : 0.75,
                  }}
                />
              </span>
              <span className="text-right tabular text-muted">{millis(row.end - row.start)}</span>
            </TimelineRow>
          );
        })}
      </div>
    </div>
  );
}
