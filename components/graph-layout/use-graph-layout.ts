"use client";
/**
 * React binding of the layout engine: returns positions for `graph` at once (the provisional layout) and
 * replaces them with ELK's when the worker answers. One request is in flight at a time; a graph that changes
 * meanwhile (a live run growing) is laid out next, so every answer is used and the newest graph always wins.
 *
 * Graphs are compared by their structure (node ids and sizes, edges), not by object identity: a live run whose
 * sessions only grew chunks, or a new selection, keeps its layout. ELK's answers are kept in a small cache, so
 * collapsing a chain again or coming back to a view reuses them. Above `maxElkNodes` nodes ELK is not asked at all:
 * layered layout with crossing minimisation grows much faster than the graph (a 400-node fan-out takes ELK tens of
 * seconds), so the quick layered layout is the answer (`source: "quick"`).
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { createGraphLayoutEngine, type GraphLayoutEngine, type LayoutThread } from "./layout-engine";
import type { LayoutGraphInput, LayoutOptions, LayoutResult } from "./layout-types";
import { layoutCache, layoutKey } from "./layout-cache";
import { provisionalLayout } from "./provisional-layout";
import { quickLayout } from "./quick-layout";

/** What `useGraphLayout` returns. */
export interface GraphLayoutState {
  layout: LayoutResult;
  /** `elk` once ELK laid out exactly this graph; `quick` for graphs too large for ELK; `provisional` before. */
  source: "provisional" | "elk" | "quick";
  /** Where ELK's last answer was computed (null before the first one). */
  thread: LayoutThread | null;
  /** How long ELK's last layout took (ms), or null. */
  elapsedMs: number | null;
}

/** Options of the hook that are not layout options. */
export interface GraphLayoutHookOptions {
  /** Graphs with more nodes than this get the quick layout only (default: no limit). */
  maxElkNodes?: number;
}

interface Settled {
  key: string;
  result: LayoutResult;
  thread: LayoutThread;
  elapsedMs: number;
}

/** Lays `graph` out with ELK in a worker, showing a provisional layout until the answer arrives. */
export function useGraphLayout(graph: LayoutGraphInput, options: LayoutOptions = {}, hookOptions: GraphLayoutHookOptions = {}): GraphLayoutState {
  const optionsKey = JSON.stringify(options);
  const key = useMemo(() => `${optionsKey}\n${layoutKey(graph)}`, [graph, optionsKey]);
  const useElk = graph.nodes.length <= (hookOptions.maxElkNodes ?? Number.POSITIVE_INFINITY);
  const [settled, setSettled] = useState<Settled | null>(null);
  const engine = useRef<GraphLayoutEngine | null>(null);
  const inFlight = useRef(false);
  const latest = useRef({ graph, key, optionsKey });

  useEffect(() => {
    if (!useElk) return;
    const created = createGraphLayoutEngine();
    engine.current = created;
    return () => {
      created.dispose();
      engine.current = null;
      inFlight.current = false;
    };
  }, [useElk]);

  useEffect(() => {
    latest.current = { graph, key, optionsKey };
    if (!useElk) return;
    const send = (): void => {
      const current = engine.current;
      if (current === null || inFlight.current) return;
      const request = latest.current;
      const cached = layoutCache.get(request.key);
      if (cached !== undefined) {
        setSettled({ key: request.key, result: cached, thread: "worker", elapsedMs: 0 });
        return;
      }
      inFlight.current = true;
      current
        .layout(request.graph, JSON.parse(request.optionsKey) as LayoutOptions)
        .then((answer) => {
          if (engine.current !== current) return;
          layoutCache.set(request.key, answer.result);
          setSettled({ key: request.key, result: answer.result, thread: answer.thread, elapsedMs: answer.elapsedMs });
        })
        .catch(() => undefined)
        .finally(() => {
          if (engine.current !== current) return;
          inFlight.current = false;
          if (latest.current.key !== request.key) send();
        });
    };
    send();
  }, [graph, key, optionsKey, useElk]);

  const settledKey = settled?.key ?? null;
  const settledResult = settled?.result ?? null;
  const layout = useMemo(() => {
    const parsed = JSON.parse(optionsKey) as LayoutOptions;
    if (!useElk) return quickLayout(graph, parsed);
    if (settledKey === key && settledResult !== null) return settledResult;
    return layoutCache.get(key) ?? provisionalLayout(settledResult, graph, parsed);
  }, [graph, key, optionsKey, settledKey, settledResult, useElk]);
  const done = useElk && (settledKey === key || layoutCache.get(key) !== undefined);
  return {
    layout,
    source: !useElk ? "quick" : done ? "elk" : "provisional",
    thread: settled?.thread ?? null,
    elapsedMs: settled?.elapsedMs ?? null,
  };
}
