/**
 * The layout engine the UI calls: ELK in a dedicated web worker (bundled by Next.js from `elk-layout.worker.ts`),
 * so a large layout never blocks scrolling, typing or painting. Where no worker can start (server rendering,
 * tests in Node, a worker that failed), ELK runs inline instead, loaded on demand.
 */
import type { LayoutGraphInput, LayoutOptions, LayoutResult } from "./layout-types";
import { fromElkGraph, toElkGraph } from "./elk-graph";
import type { LayoutRequestMessage, LayoutResponseMessage } from "./worker-protocol";

/** Where the last layout ran. */
export type LayoutThread = "worker" | "main";

/** A layout answer and where it was computed. */
export interface EngineLayout {
  result: LayoutResult;
  thread: LayoutThread;
  elapsedMs: number;
}

/** Lays graphs out; one instance per view, disposed with it. */
export interface GraphLayoutEngine {
  layout(graph: LayoutGraphInput, options?: LayoutOptions): Promise<EngineLayout>;
  dispose(): void;
}

interface Pending {
  resolve: (layout: EngineLayout) => void;
  reject: (error: Error) => void;
  graph: LayoutGraphInput;
  options: LayoutOptions;
}

/** Creates an engine: a worker when the platform has them, else inline ELK. */
export function createGraphLayoutEngine(): GraphLayoutEngine {
  let worker: Worker | null = null;
  if (typeof Worker !== "undefined") {
    try {
      worker = new Worker(new URL("./elk-layout.worker.ts", import.meta.url), { type: "module", name: "graph-layout" });
    } catch {
      worker = null;
    }
  }
  if (worker === null) return inlineEngine();
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let fallback: GraphLayoutEngine | null = null;
  const active = worker;
  active.onmessage = (event: MessageEvent<LayoutResponseMessage>) => {
    const message = event.data;
    const entry = pending.get(message.id);
    if (entry === undefined) return;
    pending.delete(message.id);
    if (message.ok) entry.resolve({ result: message.result, thread: message.thread, elapsedMs: message.elapsedMs });
    else entry.reject(new Error(`graph layout failed: ${message.message}`));
  };
  active.onerror = (event) => {
    // A worker that cannot load (or crashed) is replaced by inline layout; the requests in flight are retried there.
    event.preventDefault();
    active.terminate();
    fallback ??= inlineEngine();
    const retry = [...pending.values()];
    pending.clear();
    for (const entry of retry) fallback.layout(entry.graph, entry.options).then(entry.resolve, entry.reject);
  };
  return {
    layout(graph, options = {}) {
      if (fallback !== null) return fallback.layout(graph, options);
      const id = nextId++;
      return new Promise<EngineLayout>((resolve, reject) => {
        pending.set(id, { resolve, reject, graph, options });
        const message: LayoutRequestMessage = { id, graph, options };
        active.postMessage(message);
      });
    },
    dispose() {
      active.terminate();
      for (const entry of pending.values()) entry.reject(new Error("graph layout engine disposed"));
      pending.clear();
    },
  };
}

/** ELK on the calling thread (Node tests, platforms without workers). */
export function inlineEngine(): GraphLayoutEngine {
  let elk: Promise<{ layout: (graph: ReturnType<typeof toElkGraph>) => Promise<ReturnType<typeof toElkGraph>> }> | null = null;
  return {
    async layout(graph, options = {}) {
      elk ??= import("elkjs/lib/elk.bundled.js").then(({ default: ELK }) => new ELK());
      const started = performance.now();
      const laidOut = await (await elk).layout(toElkGraph(graph, options));
      return { result: fromElkGraph(laidOut), thread: "main", elapsedMs: performance.now() - started };
    },
    dispose() {},
  };
}
