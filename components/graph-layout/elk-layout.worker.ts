/**
 * The layout worker: runs ELK's layered algorithm off the main thread. The bundled ELK build runs synchronously
 * in whatever thread loads it (here, this worker); it also claims `self.onmessage` when it loads inside a worker,
 * so this module sets its own handler after importing it.
 */
import ELK from "elkjs/lib/elk.bundled.js";
import { fromElkGraph, toElkGraph } from "./elk-graph";
import type { LayoutRequestMessage, LayoutResponseMessage } from "./worker-protocol";

interface WorkerScope {
  onmessage: ((event: MessageEvent<LayoutRequestMessage>) => void) | null;
  postMessage(message: LayoutResponseMessage): void;
}

const elk = new ELK();
const scope = globalThis as unknown as WorkerScope;
const thread = typeof (globalThis as { document?: unknown }).document === "undefined" ? "worker" : "main";

scope.onmessage = (event) => {
  const { id, graph, options } = event.data;
  const started = performance.now();
  elk
    .layout(toElkGraph(graph, options))
    .then((laidOut) => scope.postMessage({ id, ok: true, result: fromElkGraph(laidOut), thread, elapsedMs: performance.now() - started }))
    .catch((error: unknown) => scope.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) }));
};
