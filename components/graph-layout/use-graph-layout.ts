"use client";
/**
 * React binding of the layout engine: returns positions for `graph` at once (the provisional layout) and
 * replaces them with ELK's when the worker answers. One request is in flight at a time; a graph that changes
 * meanwhile (a live run growing) is laid out next, so every answer is used and the newest graph always wins.
 * `graph` must be memoised by the caller: a new object means a new layout.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { createGraphLayoutEngine, type GraphLayoutEngine, type LayoutThread } from "./layout-engine";
import type { LayoutGraphInput, LayoutOptions, LayoutResult } from "./layout-types";
import { provisionalLayout } from "./provisional-layout";

/** What `useGraphLayout` returns. */
export interface GraphLayoutState {
  layout: LayoutResult;
  /** `elk` once ELK laid out exactly this graph; `provisional` before. */
  source: "provisional" | "elk";
  /** Where ELK's last answer was computed (null before the first one). */
  thread: LayoutThread | null;
  /** How long ELK's last layout took (ms), or null. */
  elapsedMs: number | null;
}

interface Settled {
  graph: LayoutGraphInput;
  result: LayoutResult;
  thread: LayoutThread;
  elapsedMs: number;
}

/** Lays `graph` out with ELK in a worker, showing a provisional layout until the answer arrives. */
export function useGraphLayout(graph: LayoutGraphInput, options: LayoutOptions = {}): GraphLayoutState {
  const optionsKey = JSON.stringify(options);
  const [settled, setSettled] = useState<Settled | null>(null);
  const engine = useRef<GraphLayoutEngine | null>(null);
  const inFlight = useRef(false);
  const latest = useRef({ graph, optionsKey });

  useEffect(() => {
    const created = createGraphLayoutEngine();
    engine.current = created;
    return () => {
      created.dispose();
      engine.current = null;
      inFlight.current = false;
    };
  }, []);

  useEffect(() => {
    latest.current = { graph, optionsKey };
    const send = (): void => {
      const current = engine.current;
      if (current === null || inFlight.current) return;
      const request = latest.current;
      inFlight.current = true;
      current
        .layout(request.graph, JSON.parse(request.optionsKey) as LayoutOptions)
        .then((answer) => {
          if (engine.current !== current) return;
          setSettled({ graph: request.graph, result: answer.result, thread: answer.thread, elapsedMs: answer.elapsedMs });
        })
        .catch(() => undefined)
        .finally(() => {
          if (engine.current !== current) return;
          inFlight.current = false;
          if (latest.current !== request) send();
        });
    };
    send();
  }, [graph, optionsKey]);

  const layout = useMemo(
    () => (settled !== null && settled.graph === graph ? settled.result : provisionalLayout(settled?.result ?? null, graph, JSON.parse(optionsKey) as LayoutOptions)),
    [graph, settled, optionsKey],
  );
  return {
    layout,
    source: settled !== null && settled.graph === graph ? "elk" : "provisional",
    thread: settled?.thread ?? null,
    elapsedMs: settled?.elapsedMs ?? null,
  };
}
