/**
 * Pure: which way a session graph (the run view's or a replay's) should flow to be largest in its pane. A fork/merge
 * run is a few sessions across and several layers along, so in a tall or narrow pane (a phone, or the run view's
 * middle column) top-to-bottom shows it several times larger than left-to-right. Both are estimated with the quick
 * layered layout; DOWN wins only when clearly larger, so a graph growing during a replay does not flip back and forth.
 * The two estimates depend on the graph's shape only (`graphExtents`), so a caller keeps them while only the pane
 * changes (a resize) or while a live run grows without changing the shape (`directionFor` is arithmetic).
 */
import { quickLayout } from "../graph-layout/quick-layout";
import type { LayoutGraphInput, LayoutOptions } from "../graph-layout/layout-types";

/** How much larger DOWN must show the graph before it replaces RIGHT (so a growing live run rarely flips). */
const DOWN_ADVANTAGE = 1.25;
/** Above this many drawn nodes the graph keeps RIGHT (the estimate lays it out twice). */
const MAX_ESTIMATED_NODES = 400;

/** Width and height of a layout in px. */
interface Extent {
  width: number;
  height: number;
}

/** The graph's size laid out flowing right and flowing down; null when it is not estimated (too small or large). */
export interface GraphExtents {
  right: Extent;
  down: Extent;
}

/** Lays `graph` out both ways (quick layout) and keeps the sizes; null below 2 or above 400 nodes. */
export function graphExtents(graph: LayoutGraphInput, options: LayoutOptions): GraphExtents | null {
  if (graph.nodes.length < 2 || graph.nodes.length > MAX_ESTIMATED_NODES) return null;
  const extent = (direction: "RIGHT" | "DOWN"): Extent => {
    const layout = quickLayout(graph, { ...options, direction });
    return { width: layout.width, height: layout.height };
  };
  return { right: extent("RIGHT"), down: extent("DOWN") };
}

/** The zoom at which a layout of `extent` fits a pane of `width` × `height`. */
function fitZoom(extent: Extent, width: number, height: number): number {
  return Math.min(width / Math.max(1, extent.width), height / Math.max(1, extent.height));
}

/** RIGHT, or DOWN when that shows a graph of `extents` clearly larger in a pane of `width` × `height` px. */
export function directionFor(extents: GraphExtents | null, width: number, height: number): "RIGHT" | "DOWN" {
  if (extents === null || width <= 0 || height <= 0) return "RIGHT";
  return fitZoom(extents.down, width, height) > fitZoom(extents.right, width, height) * DOWN_ADVANTAGE ? "DOWN" : "RIGHT";
}

/** RIGHT, or DOWN when that shows the graph clearly larger in a pane of `width` × `height` px. */
export function presentDirection(graph: LayoutGraphInput, options: LayoutOptions, width: number, height: number): "RIGHT" | "DOWN" {
  return directionFor(graphExtents(graph, options), width, height);
}
