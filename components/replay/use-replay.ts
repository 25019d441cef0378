"use client";
/**
 * Drives a demo replay: reads the run's recorded events once (`runs.events`, the types that grow the graph and the
 * chunks), places them on the playback timeline (replay-events.ts, replay-clock.ts) and re-renders exactly when the
 * next event is due — one timer at a time, none while paused. Nothing calls a model: the graph is rebuilt from the
 * events (`applyRunEvents`) as the live view builds it from the stream.
 */
import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { applyRunEvents, type RunEventData, type SessionGraphData } from "../run-state/live-graph";
import { useTRPCClient } from "../trpc/trpc-context";
import { delayUntilNext, initialClock, pause, play, replayOffsets, setSpeed, shownCount, step, toEnd, toStart, type ReplayClock, type ReplaySpeed } from "./replay-clock";
import { eventTimes } from "./replay-events";

/** Event types a replay shows (the graph, the chunks, the steps and how the run ended). */
export const REPLAY_EVENT_TYPES = ["session.created", "chunk.appended", "run.step.completed", "run.execution.completed", "run.execution.failed", "run.forked"];
const MAX_EVENTS = 50_000;

/** The replay's state and controls. */
export interface Replay {
  loading: boolean;
  error: string | null;
  events: readonly RunEventData[];
  /** Events shown so far. */
  shown: number;
  graph: SessionGraphData;
  playing: boolean;
  speed: ReplaySpeed;
  /** Playback length and position (ms of recorded time, long gaps shortened). */
  durationMs: number;
  positionMs: number;
  toggle: () => void;
  stepBy: (direction: 1 | -1) => void;
  changeSpeed: (speed: ReplaySpeed) => void;
  restart: () => void;
  /** Back before the first event, paused. */
  rewind: () => void;
}

/** Replays `runId`; `emptyGraph` is the run's graph with no sessions (the starting point). */
export function useReplay(runId: string, emptyGraph: SessionGraphData): Replay {
  const client = useTRPCClient();
  const query = useQuery({
    queryKey: ["replay-events", runId],
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => {
      const events: RunEventData[] = [];
      let afterSeq = 0;
      for (;;) {
        const page = await client.runs.events.query({ runId, afterSeq, limit: 1000, types: REPLAY_EVENT_TYPES });
        events.push(...page.events);
        if (page.events.length === 0 || page.nextAfterSeq >= page.lastSeq || events.length >= MAX_EVENTS) return events;
        afterSeq = page.nextAfterSeq;
      }
    },
  });
  const events = useMemo(() => query.data ?? [], [query.data]);
  const offsets = useMemo(() => replayOffsets(eventTimes(events)), [events]);
  const [clock, setClock] = useState<ReplayClock>(() => initialClock(1, 0));
  const [now, setNow] = useState(0);
  const started = useRef(false);

  // Start playing once the events are in.
  useEffect(() => {
    if (query.data === undefined || started.current) return;
    started.current = true;
    const at = performance.now();
    setClock((current) => play(current, offsets, at));
    setNow(at);
  }, [query.data, offsets]);

  // One timer for the next due event.
  useEffect(() => {
    const delay = delayUntilNext(clock, offsets, now);
    if (delay === null) return;
    const timer = window.setTimeout(() => setNow(performance.now()), Math.max(1, Math.ceil(delay)));
    return () => window.clearTimeout(timer);
  }, [clock, offsets, now]);

  const shown = shownCount(clock, offsets, now);
  const built = useRef<{ count: number; graph: SessionGraphData }>({ count: 0, graph: emptyGraph });
  const graph = useMemo(() => {
    const previous = built.current;
    const next = shown >= previous.count ? applyRunEvents(previous.graph, events.slice(previous.count, shown)) : applyRunEvents(emptyGraph, events.slice(0, shown));
    built.current = { count: shown, graph: next };
    return next;
  }, [shown, events, emptyGraph]);

  const update = useCallback((change: (current: ReplayClock, at: number) => ReplayClock) => {
    const at = performance.now();
    setClock((current) => change(current, at));
    setNow(at);
  }, []);
  const toggle = useCallback(
    () => update((current, at) => (current.playing && shownCount(current, offsets, at) < offsets.length ? pause(current, at) : play(current, offsets, at))),
    [update, offsets],
  );
  const stepBy = useCallback((direction: 1 | -1) => update((current, at) => step(current, offsets, direction, at)), [update, offsets]);
  const changeSpeed = useCallback((speed: ReplaySpeed) => update((current, at) => setSpeed(current, speed, at)), [update]);
  const restart = useCallback(() => update((current, at) => play(toEnd(current, offsets, at), offsets, at)), [update, offsets]);

  const rewind = useCallback(() => update((current, at) => toStart(current, at)), [update]);

  return {
    loading: query.isPending,
    error: query.error === null ? null : query.error.message,
    events,
    shown,
    graph,
    playing: clock.playing && shown < events.length,
    speed: clock.speed,
    durationMs: offsets[offsets.length - 1] ?? 0,
    positionMs: Math.max(0, Math.min(offsets[offsets.length - 1] ?? 0, clock.playing ? clock.positionMs + (now - clock.anchorWallMs) * clock.speed : clock.positionMs)),
    toggle,
    stepBy,
    changeSpeed,
    restart,
    rewind,
  };
}
