"use client";
/**
 * Demo replay of a finished run, laid out for an audience: full screen (Fullscreen API), the session graph growing
 * as it did, the chunks streaming in beside it in larger type, and a control bar. Keyboard: Space pause/resume,
 * → next event, ← previous event, Home back to the start, 1 / 4 / 6 speed 1× / 4× / 16×, Esc leave. Nothing calls a model: everything comes
 * from the run's recorded events (use-replay.ts).
 */
import { ChevronLeft, ChevronRight, Maximize, Minimize, Pause, Play, RotateCcw, X } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Chunk } from "../../runtime/session/chunk";
import type { RunEventData, SessionGraphData } from "../run-state/live-graph";
import { SessionGraph } from "../session-graph/session-graph";
import { toFlowGraph } from "../session-graph/to-flow-graph";
import { Button } from "../ui/button";
import { Kbd } from "../ui/kbd";
import { REPLAY_SPEEDS, type ReplaySpeed } from "./replay-clock";
import { useReplay } from "./use-replay";

/** Props: the run, its full graph (for the run facts; the replay starts empty), node labels and how to leave. */
export interface ReplayPresentationProps {
  runId: string;
  graph: SessionGraphData;
  title: string;
  labels: Readonly<Record<string, string>>;
  onExit: () => void;
}

const NO_HOVER: ReadonlySet<string> = new Set();
const SPEED_KEYS: Record<string, ReplaySpeed> = { "1": 1, "4": 4, "6": 16 };

function clock(milliseconds: number): string {
  const seconds = Math.floor(milliseconds / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function chunkText(chunk: Chunk): string {
  switch (chunk.kind) {
    case "system":
    case "user":
    case "tool_result":
      return chunk.payload.content;
    case "assistant":
      return [chunk.payload.content ?? "", ...(chunk.payload.tool_calls ?? []).map((call) => `→ ${call.function.name}(${call.function.arguments})`)].filter(Boolean).join("\n");
    default:
      return JSON.stringify(chunk.payload);
  }
}

/** The last chunk events shown, newest last. */
function recentChunks(events: readonly RunEventData[], shown: number, limit: number): Array<{ seq: number; sessionId: string; index: number; chunk: Chunk }> {
  const recent: Array<{ seq: number; sessionId: string; index: number; chunk: Chunk }> = [];
  for (let position = shown - 1; position >= 0 && recent.length < limit; position -= 1) {
    const event = events[position] as RunEventData;
    if (event.type !== "chunk.appended") continue;
    const { session_id: sessionId, index, chunk } = event.payload as { session_id?: unknown; index?: unknown; chunk?: unknown };
    if (typeof sessionId === "string" && typeof index === "number" && typeof chunk === "object" && chunk !== null) recent.push({ seq: event.seq, sessionId, index, chunk: chunk as Chunk });
  }
  return recent.reverse();
}

/** The presentation. */
export function ReplayPresentation({ runId, graph, title, labels, onExit }: ReplayPresentationProps) {
  const emptyGraph = useMemo<SessionGraphData>(() => ({ ...graph, sessions: [], edges: [], eventSeq: 0, totalUsage: null }), [graph]);
  const replay = useReplay(runId, emptyGraph);
  const root = useRef<HTMLDivElement>(null);
  const [fullscreen, setFullscreen] = useState(false);
  const [expandedChains, setExpandedChains] = useState<ReadonlySet<string>>(new Set());
  const chunks = useMemo(() => recentChunks(replay.events, replay.shown, 30), [replay.events, replay.shown]);
  const latest = chunks[chunks.length - 1];
  const projection = useMemo(
    () => toFlowGraph({ sessions: replay.graph.sessions, expandedChains, selectedSessionId: latest?.sessionId ?? null }),
    [replay.graph.sessions, expandedChains, latest?.sessionId],
  );
  const streamEnd = useRef<HTMLLIElement>(null);
  useEffect(() => streamEnd.current?.scrollIntoView({ block: "end" }), [latest?.seq]);

  const leave = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    onExit();
  }, [onExit]);
  const toggleFullscreen = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void root.current?.requestFullscreen?.().catch(() => undefined);
  }, []);

  // Full screen on entry (a browser may refuse: the overlay still fills the window); leaving full screen with the
  // browser's own Esc leaves the replay too.
  useEffect(() => {
    void root.current?.requestFullscreen?.().catch(() => undefined);
    let was = false;
    const onChange = () => {
      const now = document.fullscreenElement !== null;
      setFullscreen(now);
      if (was && !now) onExit();
      was = now;
    };
    document.addEventListener("fullscreenchange", onChange);
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, [onExit]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const speed = SPEED_KEYS[event.key];
      if (event.key === " ") replay.toggle();
      else if (event.key === "ArrowRight") replay.stepBy(1);
      else if (event.key === "ArrowLeft") replay.stepBy(-1);
      else if (event.key === "Escape") leave();
      else if (event.key === "Home") replay.rewind();
      else if (speed !== undefined) replay.changeSpeed(speed);
      else return;
      event.preventDefault();
    };
    // Space is the replay's: a focused button must not also be clicked by it (buttons click on Space's keyup).
    const onKeyUp = (event: KeyboardEvent) => {
      if (event.key === " ") event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    window.addEventListener("keyup", onKeyUp);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("keyup", onKeyUp);
    };
  }, [replay, leave]);
  useEffect(() => root.current?.focus(), []);

  const progress = replay.events.length === 0 ? 0 : replay.shown / replay.events.length;
  return (
    <div
      ref={root}
      tabIndex={-1}
      role="dialog"
      aria-modal="true"
      aria-label={`Replay of ${title}`}
      data-testid="replay"
      data-shown={replay.shown}
      data-total={replay.events.length}
      data-playing={replay.playing}
      data-speed={replay.speed}
      data-sessions={replay.graph.sessions.length}
      className="fixed inset-0 z-50 flex min-w-0 flex-col bg-canvas text-ink outline-none"
    >
      <div className="flex shrink-0 min-w-0 flex-wrap items-center gap-2 border-b border-line bg-surface px-3 py-2 sm:px-5">
        <h2 className="min-w-0 flex-1 truncate text-lg font-semibold tracking-tight sm:text-xl">{title}</h2>
        <span className="text-sm text-muted tabular" data-testid="replay-position">
          {clock(replay.positionMs)} / {clock(replay.durationMs)} · event {replay.shown} of {replay.events.length} · {replay.graph.sessions.length} sessions
        </span>
        <div className="flex items-center gap-1" role="group" aria-label="Speed">
          {REPLAY_SPEEDS.map((speed) => (
            <Button key={speed} size="sm" variant={replay.speed === speed ? "primary" : "ghost"} aria-pressed={replay.speed === speed} data-testid={`replay-speed-${speed}`} onClick={() => replay.changeSpeed(speed)}>
              {speed}×
            </Button>
          ))}
        </div>
        <div className="flex items-center gap-1">
          <Button size="sm" variant="ghost" icon={ChevronLeft} aria-label="Previous event (←)" data-testid="replay-back" onClick={() => replay.stepBy(-1)} />
          <Button size="sm" variant="secondary" icon={replay.playing ? Pause : Play} data-testid="replay-toggle" onClick={replay.toggle} aria-label={replay.playing ? "Pause (Space)" : "Play (Space)"} />
          <Button size="sm" variant="ghost" icon={ChevronRight} aria-label="Next event (→)" data-testid="replay-next" onClick={() => replay.stepBy(1)} />
          <Button size="sm" variant="ghost" icon={RotateCcw} aria-label="Play from the start" onClick={replay.restart} />
          <Button size="sm" variant="ghost" icon={fullscreen ? Minimize : Maximize} aria-label={fullscreen ? "Leave full screen" : "Full screen"} onClick={toggleFullscreen} />
          <Button size="sm" variant="ghost" icon={X} aria-label="Leave the replay (Esc)" data-testid="replay-exit" onClick={leave} />
        </div>
      </div>
      <div className="h-1 shrink-0 bg-raised" aria-hidden="true">
        <div className="h-full bg-accent transition-[width] duration-150" style={{ width: `${progress * 100}%` }} />
      </div>
      {replay.error !== null ? (
        <p role="alert" className="m-6 text-lg text-status-failed">
          Could not read the run&apos;s events: {replay.error}
        </p>
      ) : replay.loading ? (
        <div className="m-6 flex-1 animate-pulse rounded-lg bg-raised" />
      ) : (
        <div className="flex min-h-0 min-w-0 flex-1 flex-col lg:flex-row">
          <div className="flex min-h-[40dvh] min-w-0 flex-1">
            {replay.graph.sessions.length === 0 ? (
              <p className="m-auto text-lg text-muted">The run starts…</p>
            ) : (
              <SessionGraph
                projection={projection}
                labels={labels}
                selectedSessionId={latest?.sessionId ?? null}
                hoveredSessions={NO_HOVER}
                onSelectSession={() => undefined}
                onToggleChain={(chainId) => setExpandedChains((current) => new Set([...current, chainId]))}
                onHover={() => undefined}
                onFailure={() => undefined}
              />
            )}
          </div>
          <section aria-label="Chunks as they arrive" className="flex max-h-[45dvh] min-h-0 min-w-0 flex-col border-t border-line bg-surface lg:max-h-none lg:w-[min(44rem,42vw)] lg:border-t-0 lg:border-l">
            <ol data-testid="replay-chunks" className="min-h-0 flex-1 space-y-3 overflow-y-auto px-4 py-3" aria-live="polite">
              {chunks.map((entry) => (
                <li key={entry.seq} data-testid="replay-chunk" data-kind={entry.chunk.kind} className="min-w-0">
                  <div className="text-sm text-muted">
                    <span className="font-medium text-ink">{entry.chunk.meta.producer ?? entry.chunk.kind}</span> · {entry.chunk.kind} · #{entry.index}
                  </div>
                  <p className="mt-0.5 max-h-64 overflow-hidden whitespace-pre-wrap text-base leading-relaxed [overflow-wrap:anywhere] sm:text-lg">{chunkText(entry.chunk).slice(0, 4000)}</p>
                </li>
              ))}
              <li ref={streamEnd} aria-hidden="true" />
            </ol>
            <p className="shrink-0 border-t border-line px-4 py-2 text-xs text-muted">
              <Kbd>Space</Kbd> pause · <Kbd>←</Kbd> <Kbd>→</Kbd> step · <Kbd>Home</Kbd> start · <Kbd>1</Kbd> <Kbd>4</Kbd> <Kbd>6</Kbd> speed 1× 4× 16× · <Kbd>Esc</Kbd> leave
            </p>
          </section>
        </div>
      )}
    </div>
  );
}
