"use client";
/**
 * The timeline of an imported run (a reference file or a bundle without step events): it never executed here, so
 * there are no node executions to draw. What the file does record is shown instead: its sessions in the order they
 * were made, with the node that produced each, its lineage kind and its chunks, linked with the graph like the
 * steps of a live run (hover highlights, click selects). Rows are virtualised (an imported run may hold thousands).
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { FileInput } from "lucide-react";
import { useRef } from "react";
import type { GraphSessionData } from "../run-state/live-graph";
import { EmptyState } from "../ui/empty-state";
import { shortId } from "../ui/format";
import { paneSizeOptions } from "../ui/virtual-pane-size";
import { TimelineRow } from "./timeline-row";

/** Props of the imported timeline. */
export interface ImportedTimelineProps {
  file: string | null;
  sessions: readonly GraphSessionData[];
  labels: Readonly<Record<string, string>>;
  hoveredSessions: ReadonlySet<string>;
  selectedSessionId: string | null;
  onHover: (sessionIds: readonly string[]) => void;
  onSelectSession: (sessionId: string) => void;
}

/** The imported run's sessions in the order they were made, with why there are no steps. */
export function ImportedTimeline({ file, sessions, labels, hoveredSessions, selectedSessionId, onHover, onSelectSession }: ImportedTimelineProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: sessions.length, getScrollElement: () => scroller.current, estimateSize: () => 26, overscan: 10, ...paneSizeOptions("timeline") });
  const source = file === null ? "a file" : file;
  return (
    <div className="flex h-full min-h-0 flex-col">
      <p data-testid="timeline-imported" className="shrink-0 px-3 pb-1 text-xs break-words text-muted">
        Imported from <span className="font-mono break-all text-ink">{source}</span>: it ran elsewhere, so there are no node executions or timings here. Its{" "}
        {sessions.length} session{sessions.length === 1 ? "" : "s"} in the order they were made:
      </p>
      {sessions.length === 0 ? (
        <EmptyState icon={FileInput} title="No sessions in the file" testId="timeline-empty" />
      ) : (
        <div ref={scroller} data-testid="run-timeline" data-derived="sessions" className="min-h-0 flex-1 overflow-y-auto overflow-x-hidden [contain:strict]" onMouseLeave={() => onHover([])}>
          <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const session = sessions[item.index] as GraphSessionData;
              const label = session.nodeId === null ? "(no node)" : (labels[session.nodeId] ?? session.nodeId);
              const linked = hoveredSessions.has(session.id) || session.id === selectedSessionId;
              const failed = session.status !== "ok" || (session.toolErrors?.count ?? 0) > 0;
              return (
                <TimelineRow
                  key={session.id}
                  testId="timeline-session"
                  start={item.start}
                  columns="grid-cols-[2.5rem_minmax(0,1fr)_minmax(0,7rem)_4.5rem]"
                  linked={linked}
                  sessions={[session.id]}
                  onHover={onHover}
                  onSelect={() => onSelectSession(session.id)}
                  data={{ "data-session-id": session.id }}
                >
                  <span className="text-right tabular text-faint">{item.index + 1}</span>
                  <span className={`min-w-0 truncate font-medium ${failed ? "text-status-failed" : "text-ink"}`} title={`${label} · session ${session.id}`}>
                    {label} <span className="font-mono font-normal text-faint">{shortId(session.id)}</span>
                  </span>
                  <span className="min-w-0 truncate text-muted">{session.lineage.lineage_kind}</span>
                  <span className="text-right tabular text-muted">
                    {session.chunkCount} chunk{session.chunkCount === 1 ? "" : "s"}
                  </span>
                </TimelineRow>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}
