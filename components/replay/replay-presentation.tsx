"use client";
/**
 * Demo replay of a finished run, laid out for an audience: a modal layer over the whole window (native <dialog>:
 * focus stays inside, the run view behind is inert, Esc leaves), the session graph growing as it did, the chunks
 * streaming in beside it in larger type, and a control bar (replay-controls.tsx). Full screen is optional (F or the
 * button; a browser may refuse it, and the layer fills the window either way). Keys: replay-keys.ts. Nothing calls a
 * model: everything comes from the run's recorded events (use-replay.ts).
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import type { Chunk } from "../../runtime/session/chunk";
import type { RunEventData, SessionGraphData } from "../run-state/live-graph";
import { SessionGraph } from "../session-graph/session-graph";
import { toFlowGraph } from "../session-graph/to-flow-graph";
import { Kbd } from "../ui/kbd";
import { ReplayControls } from "./replay-controls";
import { useFullscreen, useReplayKeys } from "./use-presentation";
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

interface ShownChunk {
  seq: number;
  sessionId: string;
  index: number;
  chunk: Chunk;
}

/** The last chunk events shown, newest last. */
function recentChunks(events: readonly RunEventData[], shown: number, limit: number): ShownChunk[] {
  const recent: ShownChunk[] = [];
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
  const emptyGraph = useMemo<SessionGraphData>(() => ({ ...graph, sessions: [], eventSeq: 0, totalUsage: null }), [graph]);
  const replay = useReplay(runId, emptyGraph);
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const screen = useFullscreen();
  const [expandedChains, setExpandedChains] = useState<ReadonlySet<string>>(new Set());
  const chunks = useMemo(() => recentChunks(replay.events, replay.shown, 30), [replay.events, replay.shown]);
  const latest = chunks[chunks.length - 1];
  const projection = useMemo(
    () => toFlowGraph({ sessions: replay.graph.sessions, expandedChains, selectedSessionId: latest?.sessionId ?? null }),
    [replay.graph.sessions, expandedChains, latest?.sessionId],
  );
  const streamEnd = useRef<HTMLLIElement>(null);
  // Block bodies on purpose: an effect must return nothing or a cleanup function, and Chromium's scrollIntoView
  // returns a Promise (React would call it as the cleanup and crash the page).
  useEffect(() => {
    streamEnd.current?.scrollIntoView({ block: "end" });
  }, [latest?.seq]);

  const { exit: exitFullscreen } = screen;
  const leave = useCallback(() => {
    exitFullscreen();
    onExit();
  }, [exitFullscreen, onExit]);
  useReplayKeys(replay, screen.toggle);

  // Opened as a modal over the run view; focus goes back to what opened it (the Replay button) on leaving.
  useEffect(() => {
    const opener = document.activeElement;
    dialog.current?.showModal();
    return () => {
      if (opener instanceof HTMLElement) opener.focus();
    };
  }, []);

  const progress = replay.events.length === 0 ? 0 : replay.shown / replay.events.length;
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      data-testid="replay"
      data-shown={replay.shown}
      data-total={replay.events.length}
      data-playing={replay.playing}
      data-speed={replay.speed}
      data-sessions={replay.graph.sessions.length}
      data-duration={replay.durationMs}
      data-fullscreen={screen.fullscreen}
      onCancel={(event) => {
        event.preventDefault();
        leave();
      }}
      onClose={leave}
      className="fixed inset-0 m-0 h-dvh max-h-none w-dvw max-w-none flex-col overflow-hidden bg-canvas p-0 text-ink outline-none open:flex backdrop:bg-canvas"
    >
      <ReplayControls replay={replay} title={title} titleId={titleId} fullscreen={screen.fullscreen} canFullscreen={screen.supported} onToggleFullscreen={screen.toggle} onLeave={leave} />
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
                present
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
              <Kbd>Space</Kbd> pause · <Kbd>←</Kbd> <Kbd>→</Kbd> step · <Kbd>Home</Kbd> start · <Kbd>1</Kbd> <Kbd>4</Kbd> <Kbd>6</Kbd> speed 1× 4× 16× · <Kbd>F</Kbd> full screen · <Kbd>Esc</Kbd> leave
            </p>
          </section>
        </div>
      )}
    </dialog>
  );
}
