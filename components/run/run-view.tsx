"use client";
/**
 * The run page (session graph explorer): header (status, live indicator, running node, controls, errors), pending
 * approvals and review, then graph | session | inspector with the timeline under the graph; panels resize and
 * remember their size. Below `lg` the panels become tabs. Everything grows live from the event stream
 * (`useRunLive`); the selection lives in the URL (`?session=…&chunk=…`).
 */
import { useQuery } from "@tanstack/react-query";
import { Network } from "lucide-react";
import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ExportButton } from "../export/export-button";
import { ChunkActions } from "../fork/chunk-actions";
import { RunLineageStrip } from "../fork/run-lineage-strip";
import { ReplayButton } from "../replay/replay-button";
import { ReplayPresentation } from "../replay/replay-presentation";
import { ChunkInspector } from "../inspector/chunk-inspector";
import { liveChunkOf } from "../run-state/live-chunks";
import type { GraphSessionData } from "../run-state/live-graph";
import { SessionGraph } from "../session-graph/session-graph";
import { toFlowGraph, type PendingNode } from "../session-graph/to-flow-graph";
import type { RunDetail } from "../trpc/router-types";
import { useTRPC } from "../trpc/trpc-context";
import { EmptyState } from "../ui/empty-state";
import { ResizeHandle, usePanelSize } from "../ui/resize-handle";
import { chunkPageInput } from "./chunk-pages";
import { PendingApprovals } from "./pending-approvals";
import { ReviewPanel } from "./review-panel";
import { firstFailure, runErrors, type RunErrorEntry } from "./run-errors";
import { RunHeader } from "./run-header";
import { RunTimeline } from "./run-timeline";
import { selectionSearch, type UrlSelection } from "./run-selection-url";
import { RunViewStoreProvider, useRunView, type RunPanel } from "./run-view-store";
import { SessionPanel } from "./session-panel";
import { costOf } from "./run-costs";
import { sumOwnUsage } from "./usage-views";
import { useRunCosts } from "./use-run-costs";
import { useCoalescedValue } from "./use-coalesced-value";
import { useEscapeClearsChunk } from "./use-escape-clears-chunk";
import { useRunLive } from "./use-run-live";

/** Props: the run, its first detail (server-rendered), workflow facts and the selection the URL asked for. */
export interface RunViewProps {
  runId: string;
  initial: RunDetail;
  workflowName: string;
  revisionNumber: number | null;
  /** Canvas node labels of the run's revision, by node id. */
  labels: Readonly<Record<string, string>>;
  usesDemoProvider: boolean;
  initialSelection: UrlSelection;
  /**
   * A shared run (`/share/<token>`): no run controls, approvals, review, share or editor links — only what a
   * share link may read (server/auth/principal.ts enforces it; this only leaves out what would be refused).
   */
  readOnly?: boolean;
}

const SESSION_LIMITS = { initial: 420, min: 280, max: 760 };
const INSPECTOR_LIMITS = { initial: 360, min: 260, max: 680 };
const TIMELINE_LIMITS = { initial: 180, min: 72, max: 520 };
const TABS: { panel: RunPanel; label: string }[] = [
  { panel: "graph", label: "Graph" },
  { panel: "session", label: "Session" },
  { panel: "inspector", label: "Inspector" },
  { panel: "timeline", label: "Timeline" },
];

/** No effect entries (a constant: a new empty list per render would redraw the inspector at every live step). */
const NO_EFFECTS: readonly never[] = [];

// Panels whose input a live step rarely changes: they render again only when it does.
const LineageStrip = memo(RunLineageStrip);
const Inspector = memo(ChunkInspector);
const Actions = memo(ChunkActions);
// The graph and the timeline render only when what they are given changes (their shown state lags while live).
const Graph = memo(SessionGraph);
const Timeline = memo(RunTimeline);

/**
 * While the stream is live, the graph and the timeline grow at most this often: a step's events paint the live
 * indicator, the header and the chunk list in the frame that applies them, and the graph's growth (a layout, a
 * reframe, xyflow's render) follows in a transition after that paint, coalescing the steps in between.
 */
const LIVE_GRAPH_INTERVAL_MS = 250;

/**
 * The session shown before the user picks one: the run's (first) output session, else the newest session an
 * operation produced, else the newest session.
 */
function defaultSessionId(sessions: readonly GraphSessionData[], output: unknown): string | null {
  const outputs = (output as { outputs?: Array<{ sessionId?: unknown }> } | null)?.outputs ?? [];
  const outputId = outputs.find((entry) => typeof entry.sessionId === "string" && sessions.some((session) => session.id === entry.sessionId))?.sessionId;
  if (typeof outputId === "string") return outputId;
  const produced = sessions.filter((session) => session.lineage.lineage_kind.startsWith("op_"));
  return (produced[produced.length - 1] ?? sessions[sessions.length - 1])?.id ?? null;
}

/** The session selected among `sessions`: the one the person chose when it is there, else the default. */
function selectedSessionIn(sessions: readonly GraphSessionData[], chosen: string | null, output: unknown): string | null {
  return chosen !== null && sessions.some((session) => session.id === chosen) ? chosen : defaultSessionId(sessions, output);
}

function RunViewBody({ runId, initial, workflowName, revisionNumber, labels, usesDemoProvider, readOnly = false, initialSelection }: RunViewProps) {
  const live = useRunLive(runId, initial);
  const trpc = useTRPC();
  const { detail, graph, timeline } = live;
  const run = detail.run;
  const chosenSession = useRunView((state) => state.sessionId);
  const chunkIndex = useRunView((state) => state.chunkIndex);
  const hovered = useRunView((state) => state.hoveredSessions);
  const expandedChains = useRunView((state) => state.expandedChains);
  const panel = useRunView((state) => state.panel);
  const select = useRunView((state) => state.select);
  const hover = useRunView((state) => state.hover);
  const toggleChain = useRunView((state) => state.toggleChain);
  const expandChain = useRunView((state) => state.expandChain);
  const collapseChains = useRunView((state) => state.collapseChains);
  const showPanel = useRunView((state) => state.showPanel);
  const selectChunk = useRunView((state) => state.selectChunk);

  const sessions = useMemo(() => graph?.sessions ?? [], [graph]);
  const sessionById = useMemo(() => new Map(sessions.map((session) => [session.id, session])), [sessions]);
  const selectedId = useMemo(() => selectedSessionIn(sessions, chosenSession, run.output), [sessions, chosenSession, run.output]);
  const selected = selectedId === null ? null : (sessionById.get(selectedId) ?? null);
  // What the graph and the timeline show: the live state, coalesced while the stream is live (exact once it ends).
  const streaming = live.stream !== "loading" && live.stream !== "ended";
  const liveShown = useMemo(() => ({ graph, timeline }), [graph, timeline]);
  const lagged = useCoalescedValue(liveShown, streaming ? LIVE_GRAPH_INTERVAL_MS : 0);
  const shownGraph = lagged.graph;
  const shownTimeline = lagged.timeline;
  const shownSessions = useMemo(() => shownGraph?.sessions ?? [], [shownGraph]);
  // The graph's own selection among what it shows (the same as `selectedId` whenever it shows the live state).
  const shownSelectedId = useMemo(
    () => (shownSessions === sessions ? selectedId : selectedSessionIn(shownSessions, chosenSession, run.output)),
    [shownSessions, sessions, selectedId, chosenSession, run.output],
  );

  // The selection goes into the URL (replace, so Back leaves the page instead of walking selections).
  useEffect(() => {
    if (chosenSession === null) return;
    const search = selectionSearch(window.location.search, { sessionId: chosenSession, chunkIndex });
    if (search !== window.location.search) window.history.replaceState(window.history.state, "", `${window.location.pathname}${search}`);
  }, [chosenSession, chunkIndex]);

  const pending = useMemo<PendingNode[]>(() => {
    if (run.status !== "running" && run.status !== "queued" && run.status !== "waiting") return [];
    if (run.status === "waiting") return detail.pendingInterrupts.map((interrupt) => ({ nodeId: interrupt.nodeId, inputs: shownTimeline.steps.filter((step) => step.nodeId === interrupt.nodeId && step.waiting).flatMap((step) => step.inputs).slice(-1), status: "waiting" as const }));
    return shownTimeline.next.map((step, position) => ({ nodeId: step.nodeId, inputs: step.inputs, status: position === 0 && run.status === "running" ? ("running" as const) : ("queued" as const) }));
  }, [run.status, shownTimeline, detail.pendingInterrupts]);
  const failure = run.status === "failed" || run.status === "timed_out" ? shownTimeline.failure : null;
  const projection = useMemo(
    () => toFlowGraph({ sessions: shownSessions, expandedChains, pending, failure: failure === null ? null : { nodeId: failure.nodeId, code: failure.code, message: failure.message, inputs: failure.inputs } }),
    [shownSessions, expandedChains, pending, failure],
  );
  // A session the person selects (or the URL names) opens the chain holding it, once: "Collapse chains" may close it
  // again. The default selection (the newest session of a live run) opens nothing, or the growing chain would stay
  // open and the graph reshape at every step.
  const openedFor = useRef<string | null>(null);
  useEffect(() => {
    if (chosenSession === null || openedFor.current === chosenSession) return;
    const chainId = projection.nodeOfSession.get(chosenSession);
    if (chainId === undefined) return;
    openedFor.current = chosenSession;
    if (projection.chains.has(chainId)) expandChain(chainId);
  }, [chosenSession, projection, expandChain]);
  const errors = useMemo(() => runErrors(sessions, run.error, timeline.failure), [sessions, run.error, timeline.failure]);
  const target = firstFailure(errors);
  const jump = useCallback(
    (entry: RunErrorEntry) => {
      if (entry.sessionId === null) return;
      select(entry.sessionId, entry.chunkIndex);
      showPanel(entry.chunkIndex === null ? "session" : "inspector");
    },
    [select, showPanel],
  );
  // Where a graph too large to read whole opens: the session the URL named, else the first failure, else the root.
  const initialFocus = initialSelection.sessionId ?? target?.sessionId ?? null;
  // A run unfinished when the page opened: while the person has chosen no session, the graph keeps its newest session
  // in view (also when the last sessions arrive after it ended: a stream cut and resumed delivers them late).
  const [openedUnfinished] = useState(() => run.status === "running" || run.status === "queued" || run.status === "waiting");
  const followSessionId = (openedUnfinished || live.stream !== "ended") && chosenSession === null ? (shownSessions[shownSessions.length - 1]?.id ?? null) : null;
  const onFollow = useCallback(() => select(null), [select]);
  const costs = useRunCosts(runId, live.lastSeq, live.stream !== "ended", graph !== null);
  const runTokens = useMemo(() => (graph === null ? null : (sumOwnUsage(sessionById.keys(), sessionById)?.total_tokens ?? 0)), [graph, sessionById]);
  const runCost = useMemo(() => (costs === null ? null : costOf(sessionById.keys(), costs.usage, costs.prices)), [costs, sessionById]);
  const runningStep = run.status === "running" ? timeline.next[0] : undefined;
  const runningNodeId = runningStep?.nodeId ?? null;
  const runningNode = useMemo(() => (runningNodeId === null ? null : { nodeId: runningNodeId, label: labels[runningNodeId] ?? runningNodeId }), [runningNodeId, labels]);

  const effects = useQuery(trpc.runs.effects.queryOptions({ runId }, { staleTime: Number.POSITIVE_INFINITY }));
  const chunkCount = selected?.chunkCount ?? 0;
  // A chunk the stream carried is shown as it came; others are read with their page (ending where the tail starts).
  const liveTail = selected === null ? undefined : live.liveChunks.get(selected.id);
  const liveChunk = chunkIndex === null || selectedId === null ? undefined : liveChunkOf(live.liveChunks, sessionById, selectedId, chunkIndex);
  const readUpTo = Math.min(chunkCount, liveTail?.from ?? Number.POSITIVE_INFINITY);
  const chunkQuery = useQuery({
    ...trpc.sessions.chunks.queryOptions(chunkPageInput(selectedId ?? "", chunkIndex ?? 0, readUpTo), { staleTime: Number.POSITIVE_INFINITY }),
    enabled: selectedId !== null && chunkIndex !== null && chunkIndex < readUpTo && liveChunk === undefined,
  });
  const selectedChunk = chunkIndex === null ? null : (liveChunk ?? chunkQuery.data?.chunks.find((chunk) => chunk.index === chunkIndex) ?? null);

  const [sessionWidth, setSessionWidth] = usePanelSize("run-session", SESSION_LIMITS);
  const [inspectorWidth, setInspectorWidth] = usePanelSize("run-inspector", INSPECTOR_LIMITS);
  const [timelineHeight, setTimelineHeight] = usePanelSize("run-timeline", TIMELINE_LIMITS);
  const onGraphSelect = useCallback(
    (sessionId: string) => {
      select(sessionId, null);
      if (window.matchMedia("(max-width: 1023px)").matches) showPanel("session");
    },
    [select, showPanel],
  );
  // The same function while the shown session changes (a live run's newest, step after step): the chunk rows it is
  // handed to are memoised and would all render again (markdown included) for a new one.
  const selectedRef = useRef(selectedId);
  selectedRef.current = selectedId;
  const onSelectChunk = useCallback((index: number) => select(selectedRef.current, index), [select]);
  const onSelectSession = useCallback((sessionId: string) => select(sessionId, null), [select]);
  const clearChunk = useCallback(() => selectChunk(null), [selectChunk]);
  const onPanelKeyDown = useEscapeClearsChunk(chunkIndex !== null, clearChunk);
  // The same function while a failure exists (the entry it jumps to is read when clicked): the graph and the header
  // do not render again because the failure list was recomputed.
  const targetRef = useRef(target);
  targetRef.current = target;
  const hasTarget = target !== null;
  const jumpToFailure = useCallback(() => {
    if (targetRef.current !== null) jump(targetRef.current);
  }, [jump]);
  const shown = (name: RunPanel) => (panel === name ? "flex" : "hidden");
  const [replaying, setReplaying] = useState(false);
  const stopReplay = useCallback(() => setReplaying(false), []);
  const startReplay = useCallback(() => setReplaying(true), []);
  const replayReady = graph !== null && sessions.length > 0;
  const actions = useMemo(
    () => (
      <>
        <ReplayButton status={run.status} ready={replayReady} onReplay={startReplay} />
        <ExportButton runId={runId} />
      </>
    ),
    [run.status, replayReady, startReplay, runId],
  );

  return (
    <main data-testid="run-page" data-run-id={run.id} data-next-steps={timeline.next.map((step) => step.nodeId).join(" ")} className="fill-viewport flex min-w-0 flex-col overflow-hidden">
      <RunHeader
        detail={detail}
        workflowName={workflowName}
        usesDemoProvider={usesDemoProvider}
        stream={live.stream}
        reconnects={live.reconnects}
        lastSeq={live.lastSeq}
        runningNode={runningNode}
        errors={errors}
        onJump={jump}
        onJumpToFailure={hasTarget ? jumpToFailure : null}
        actions={actions}
        readOnly={readOnly}
        runTokens={runTokens}
        runCost={runCost}
      />
      {readOnly ? null : <LineageStrip runId={runId} />}
      {replaying && graph !== null ? <ReplayPresentation runId={runId} graph={graph} title={workflowName} labels={labels} onExit={stopReplay} /> : null}
      {!readOnly && (detail.pendingInterrupts.length > 0 || run.status === "needs_review") ? (
        <div className="max-h-[45dvh] shrink-0 space-y-2 overflow-y-auto border-b border-line bg-raised px-3 py-2 sm:px-4">
          <PendingApprovals interrupts={detail.pendingInterrupts} labels={labels} />
          {run.status === "needs_review" ? <ReviewPanel runId={runId} /> : null}
        </div>
      ) : null}
      <div aria-label="Run panels" className="flex shrink-0 border-b border-line bg-surface lg:hidden" role="tablist">
        {TABS.map((tab) => (
          <button
            key={tab.panel}
            type="button"
            role="tab"
            data-testid={`panel-tab-${tab.panel}`}
            aria-selected={panel === tab.panel}
            onClick={() => showPanel(tab.panel)}
            className={`flex-1 border-b-2 px-2 py-2 text-xs font-medium ${panel === tab.panel ? "border-accent text-ink" : "border-transparent text-muted hover:text-ink"}`}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div className="flex min-h-0 min-w-0 flex-1">
        <section aria-label="Session graph and timeline" className={`${panel === "graph" || panel === "timeline" ? "flex" : "hidden"} min-h-0 min-w-0 flex-1 flex-col lg:flex`}>
          <div className={`${shown("graph")} min-h-0 min-w-0 flex-1 lg:flex`}>
            {shownGraph === null ? (
              live.graphError !== null ? (
                <p role="alert" className="m-4 text-sm text-status-failed">
                  Could not read the session graph: {live.graphError}
                </p>
              ) : (
                <div data-testid="graph-loading" className="m-4 h-24 flex-1 animate-pulse rounded-md bg-raised" />
              )
            ) : shownSessions.length === 0 ? (
              <div className="flex-1">
                <EmptyState icon={Network} title="No sessions yet" testId="graph-empty">
                  Sessions appear here as the run produces them.
                </EmptyState>
              </div>
            ) : (
              <Graph
                projection={projection}
                labels={labels}
                selectedSessionId={shownSelectedId}
                hoveredSessions={hovered}
                onSelectSession={onGraphSelect}
                onToggleChain={toggleChain}
                onHover={hover}
                onFailure={jumpToFailure}
                focusSessionId={initialFocus}
                followSessionId={followSessionId}
                live={live.stream !== "ended"}
                onFollow={onFollow}
                expandedChains={expandedChains.size}
                onCollapseChains={collapseChains}
              />
            )}
          </div>
          <div className="hidden lg:block">
            <ResizeHandle size={timelineHeight} onResize={setTimelineHeight} limits={TIMELINE_LIMITS} panelSide="bottom" label="Resize the timeline" controls="run-timeline-panel" />
          </div>
          <div
            id="run-timeline-panel"
            className={`${shown("timeline")} min-h-0 min-w-0 flex-1 flex-col bg-surface lg:flex lg:h-[var(--timeline-height)] lg:flex-none`}
            style={{ ["--timeline-height" as string]: `${timelineHeight}px` }}
          >
            <h2 className="shrink-0 px-3 pt-1.5 pb-1 text-[11px] font-semibold tracking-wide text-muted uppercase">Timeline</h2>
            <div className="min-h-0 flex-1">
              <Timeline
                timeline={shownTimeline}
                sessions={shownSessions}
                runStatus={run.status}
                runStartedAt={run.startedAt}
                runFinishedAt={run.finishedAt}
                labels={labels}
                hoveredSessions={hovered}
                selectedSessionId={shownSelectedId}
                onHover={hover}
                onSelectSession={onSelectSession}
              />
            </div>
          </div>
        </section>
        <div className="hidden lg:flex">
          <ResizeHandle size={sessionWidth} onResize={setSessionWidth} limits={SESSION_LIMITS} panelSide="right" label="Resize the session panel" controls="run-session-panel" />
        </div>
        {/* Escape from a chunk row or the inspector clears the chunk selection (delegated: the rows are the controls). */}
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
        <section
          id="run-session-panel"
          aria-label="Session"
          className={`${shown("session")} min-h-0 min-w-0 flex-1 flex-col bg-surface lg:flex lg:w-[var(--session-width)] lg:flex-none`}
          style={{ ["--session-width" as string]: `${sessionWidth}px` }}
          onKeyDown={onPanelKeyDown}
        >
          <SessionPanel
            sessions={sessions}
            session={selected}
            labels={labels}
            workflowId={readOnly ? null : run.workflowId}
            revisionId={run.revisionId}
            revisionNumber={revisionNumber}
            selectedChunk={selectedId === chosenSession ? chunkIndex : null}
            following={chosenSession === null}
            onSelectChunk={onSelectChunk}
            onSelectSession={onSelectSession}
            costs={costs}
            liveTail={liveTail}
            liveChunks={live.liveChunks}
            sessionById={sessionById}
          />
        </section>
        <div className="hidden lg:flex">
          <ResizeHandle size={inspectorWidth} onResize={setInspectorWidth} limits={INSPECTOR_LIMITS} panelSide="right" label="Resize the inspector" controls="run-inspector-panel" />
        </div>
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
        <section
          id="run-inspector-panel"
          aria-label="Chunk inspector"
          className={`${shown("inspector")} min-h-0 min-w-0 flex-1 flex-col overflow-y-auto overflow-x-hidden bg-surface lg:flex lg:w-[var(--inspector-width)] lg:flex-none`}
          style={{ ["--inspector-width" as string]: `${inspectorWidth}px` }}
          onKeyDown={onPanelKeyDown}
        >
          <h2 className="shrink-0 border-b border-line px-3 py-1.5 text-[11px] font-semibold tracking-wide text-muted uppercase">Inspector</h2>
          {selected !== null && !readOnly ? <Actions session={selected} chunkIndex={chunkIndex} sessions={sessions} labels={labels} /> : null}
          <Inspector view={selectedChunk} loading={liveChunk === undefined && chunkQuery.isFetching} effects={effects.data ?? NO_EFFECTS} />
        </section>
      </div>
    </main>
  );
}

/** The run page below the navigation bar. */
export function RunView(props: RunViewProps) {
  return (
    <RunViewStoreProvider initial={props.initialSelection}>
      <RunViewBody {...props} />
    </RunViewStoreProvider>
  );
}
