/**
 * Pure: which way a session graph (the run view's or a replay's) should flow to be largest in its pane. A fork/merge
 * run is a few sessions across and several layers along, so in a tall or narrow pane (a phone, or the run view's
 * middle column) top-to-bottom shows it several times larger than left-to-right. Both are estimated with the quick layered layout; DOWN wins only when clearly larger, so a graph
 * growing during a replay does not flip back and forth.
 */
import { quickLayout } from "../graph-layout/quick-layout";
import type { LayoutGraphInput, LayoutOptions } from "../graph-layout/layout-types";

/** How much larger DOWN must show the graph before it replaces RIGHT (so a growing live run rarely flips). */
const DOWN_ADVANTAGE = 1.25;
/** Above this many drawn nodes the graph keeps RIGHT (the estimate lays it out twice). */
const MAX_ESTIMATED_NODES = 400;

/** The zoom at which `graph`, laid out with `options`, fits a pane of `width` × `height`. */
function fitZoom(graph: LayoutGraphInput, options: LayoutOptions, width: number, height: number): number {
  const layout = quickLayout(graph, options);
  return Math.min(width / Math.max(1, layout.width), height / Math.max(1, layout.height));
}

/** RIGHT, or DOWN when that shows the graph clearly larger in a pane of `width` × `height` px. */
export function presentDirection(graph: LayoutGraphInput, options: LayoutOptions, width: number, height: number): "RIGHT" | "DOWN" {
  if (graph.nodes.length < 2 || graph.nodes.length > MAX_ESTIMATED_NODES || width <= 0 || height <= 0) return "RIGHT";
  const right = fitZoom(graph, { ...options, direction: "RIGHT" }, width, height);
  const down = fitZoom(graph, { ...options, direction: "DOWN" }, width, height);
  return down > right * DOWN_ADVANTAGE ? "DOWN" : "RIGHT";
}
