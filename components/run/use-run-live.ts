"use client";
/**
 * The live state of a run page: the run (`runs.get`), its session graph (`sessions.graph`, then grown from events),
 * its timeline (the step events read once, then grown) and the stream's state. Events come from the `runs.onEvents`
 * subscription (server-sent events, pushed by the server), never from polling. The subscription starts after the
 * graph's `eventSeq`; when the connection drops, tRPC reconnects with the last event id it saw, and applying
 * events is idempotent, so nothing is lost or shown twice. Events are applied once per animation frame (all that
 * arrived since the last one) and rendered synchronously in that frame's callback, so they are painted in the same
 * frame: a state update from a frame callback is otherwise rendered in a scheduler task after the frame, and painted
 * one frame later.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { createFrameBatch } from "../run-state/frame-batch";
import { addLiveChunks, NO_LIVE_CHUNKS, type LiveChunks } from "../run-state/live-chunks";
import { applyRunEvents, namesUnknownSession, type RunEventData, type SessionGraphData } from "../run-state/live-graph";
import { applyTimelineEvents, EMPTY_TIMELINE, TIMELINE_EVENT_TYPES, type TimelineState } from "../run-state/timeline";
import type { RunDetail } from "../trpc/router-types";
import { useTRPC, useTRPCClient } from "../trpc/trpc-context";
import { isActiveStatus } from "../ui/format";

/** What the live indicator shows. */
export type StreamState = "loading" | "connecting" | "live" | "reconnecting" | "ended";

/** The run page's data. */
export interface RunLive {
  detail: RunDetail;
  graph: SessionGraphData | null;
  graphError: string | null;
  timeline: TimelineState;
  stream: StreamState;
  /** The last event seq applied. */
  lastSeq: number;
  /** Reconnections so far (the indicator shows them). */
  reconnects: number;
  /** Chunks the stream carried, by session (the chunk list shows them without reading them again). */
  liveChunks: LiveChunks;
}

/** Events that change the run itself (status, interrupts): the run is read again after them. */
const RUN_EVENT_PREFIXES = ["run.state.changed", "run.interrupt.", "run.execution.", "run.review"];
const RECENT_LIMIT = 5000;

/** Follows one run live. */
export function useRunLive(runId: string, initial: RunDetail): RunLive {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const detailQuery = useQuery(trpc.runs.get.queryOptions({ runId }, { initialData: initial, staleTime: Number.POSITIVE_INFINITY }));
  const detail = detailQuery.data ?? initial;
  const graphQuery = useQuery(trpc.sessions.graph.queryOptions({ runId }, { staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false }));
  const [graph, setGraph] = useState<SessionGraphData | null>(null);
  const [timeline, setTimeline] = useState<TimelineState | null>(null);
  const [stream, setStream] = useState<StreamState>("loading");
  const [reconnects, setReconnects] = useState(0);
  const [liveChunks, setLiveChunks] = useState<LiveChunks>(NO_LIVE_CHUNKS);
  const graphRef = useRef<SessionGraphData | null>(null);
  const recent = useRef<RunEventData[]>([]);
  const terminalAtLoad = useRef(!isActiveStatus(initial.run.status));

  // A (re)read graph: events received since its eventSeq are applied again, so a re-read never goes back in time.
  useEffect(() => {
    const data = graphQuery.data;
    if (data === undefined) return;
    const next = applyRunEvents(data, recent.current);
    graphRef.current = next;
    setGraph(next);
  }, [graphQuery.data]);

  // The timeline: the step events read once after the graph (so it covers at least the graph's eventSeq).
  const graphLoaded = graphQuery.data !== undefined;
  const refetchGraph = graphQuery.refetch;
  useEffect(() => {
    if (!graphLoaded) return;
    let cancelled = false;
    void (async () => {
      let state = EMPTY_TIMELINE;
      let afterSeq = 0;
      for (;;) {
        const page = await client.runs.events.query({ runId, afterSeq, limit: 1000, types: [...TIMELINE_EVENT_TYPES] });
        state = applyTimelineEvents(state, page.events);
        if (page.events.length < 1000) break;
        afterSeq = page.nextAfterSeq;
      }
      if (!cancelled) setTimeline(state);
    })().catch(() => {
      if (!cancelled) setTimeline(EMPTY_TIMELINE);
    });
    return () => {
      cancelled = true;
    };
  }, [graphLoaded, client, runId]);

  // The subscription, once the graph and the timeline are there.
  const ready = graphLoaded && timeline !== null;
  const startSeq = useRef<number | null>(null);
  useEffect(() => {
    if (!ready) return;
    if (terminalAtLoad.current) {
      setStream("ended");
      return;
    }
    startSeq.current ??= graphRef.current?.eventSeq ?? 0;
    let connectedOnce = false;
    // Events are applied once per animation frame: a burst renders once (one store update per frame).
    const apply = (events: RunEventData[]): void => {
      recent.current = [...recent.current, ...events].slice(-RECENT_LIMIT);
      const current = graphRef.current;
      if (current !== null) {
        if (namesUnknownSession(current, events)) void refetchGraph();
        const next = applyRunEvents(current, events);
        graphRef.current = next;
        if (next !== current) setGraph(next);
      }
      setTimeline((state) => applyTimelineEvents(state ?? EMPTY_TIMELINE, events));
      setLiveChunks((chunks) => addLiveChunks(chunks, events));
      if (events.some((event) => RUN_EVENT_PREFIXES.some((prefix) => event.type.startsWith(prefix)))) {
        void queryClient.invalidateQueries({ queryKey: trpc.runs.get.queryKey({ runId }) });
        void queryClient.invalidateQueries({ queryKey: trpc.runs.effects.queryKey({ runId }) });
      }
    };
    // Rendered inside the frame callback (flushSync), so the frame that applies a batch also paints it.
    const batch = createFrameBatch((events: RunEventData[]) => flushSync(() => apply(events)));
    // tRPC reconnects a dropped stream itself (with the last event id); when it gives up instead (an error), the
    // page subscribes again after the last event it received. Events seen twice change nothing.
    let lastSeen = startSeq.current;
    let current: { unsubscribe: () => void } | null = null;
    let retry: number | null = null;
    let stopped = false;
    const connect = (): void => {
      current = client.runs.onEvents.subscribe(
        { runId, afterSeq: lastSeen },
        {
          onStarted: () => {
            if (connectedOnce) setReconnects((count) => count + 1);
            connectedOnce = true;
            setStream("live");
          },
          onData: (envelope) => {
            lastSeen = Math.max(lastSeen, envelope.data.seq);
            batch.push(envelope.data);
          },
          onConnectionStateChange: (state) => {
            if (state.state === "connecting" && connectedOnce) setStream("reconnecting");
            if (state.state === "pending") setStream("live");
          },
          onError: () => {
            setStream("reconnecting");
            current?.unsubscribe();
            if (stopped || retry !== null) return;
            retry = window.setTimeout(() => {
              retry = null;
              if (!stopped) connect();
            }, 1000);
          },
          onComplete: () => {
            batch.flushNow();
            setStream("ended");
            void queryClient.invalidateQueries({ queryKey: trpc.runs.get.queryKey({ runId }) });
          },
        },
      );
    };
    setStream("connecting");
    connect();
    return () => {
      stopped = true;
      batch.cancel();
      current?.unsubscribe();
      if (retry !== null) window.clearTimeout(retry);
    };
  }, [ready, client, runId, queryClient, trpc, refetchGraph]);

  return {
    detail,
    graph,
    graphError: graphQuery.isError ? graphQuery.error.message : null,
    timeline: timeline ?? EMPTY_TIMELINE,
    stream,
    lastSeq: graph?.eventSeq ?? 0,
    reconnects,
    liveChunks,
  };
}
