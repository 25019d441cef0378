/**
 * Warming the auto-layout up when a big workflow opens. The first ELK layout in a fresh worker is mostly JIT
 * warm-up (about 1 s at 300 nodes, then 0.3–0.5 s), so the editor lays the opened graph out once in the worker
 * and drops the answer, before anyone clicks Auto-layout. It starts only once the first frame is painted and the
 * main thread is idle, so opening the workflow is not slowed; ELK itself runs in its worker.
 */
import type { GraphLayoutEngine } from "../graph-layout/layout-engine";
import { autoLayout } from "./auto-layout";
import type { CanvasDocument } from "./canvas-document";
import { BIG_WORKFLOW_NODES } from "./flow-projection";

/** Runs `task` after the next paint, when the main thread is idle (or after `timeout` ms at the latest). */
export function whenIdleAfterPaint(task: () => void, timeout = 2000): () => void {
  let idle: number | null = null;
  let timer: number | null = null;
  const frame = window.requestAnimationFrame(() => {
    // A task queued from a frame callback runs after that frame is painted.
    timer = window.setTimeout(() => {
      timer = null;
      if (typeof window.requestIdleCallback === "function") idle = window.requestIdleCallback(task, { timeout });
      else task();
    }, 0);
  });
  return () => {
    window.cancelAnimationFrame(frame);
    if (timer !== null) window.clearTimeout(timer);
    if (idle !== null) window.cancelIdleCallback(idle);
  };
}

/**
 * Lays `document()` out once in the engine and ignores the answer, when it has more than BIG_WORKFLOW_NODES nodes.
 * `onWarm` runs when the warm-up layout has finished. Returns the cancel function.
 */
export function warmUpLayout(engine: GraphLayoutEngine, document: () => CanvasDocument, onWarm: () => void): () => void {
  return whenIdleAfterPaint(() => {
    const current = document();
    if (current.nodes.length <= BIG_WORKFLOW_NODES) return;
    autoLayout(engine, current, () => undefined).then(onWarm, () => undefined);
  });
}
