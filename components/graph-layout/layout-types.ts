/**
 * The generic layout API: nodes with sizes and edges in, top-left positions out. Nothing here knows about
 * sessions or workflows; the run graph and the canvas's auto-layout both speak it.
 */

/** A node to place: its id and size in pixels. */
export interface LayoutNodeInput {
  id: string;
  width: number;
  height: number;
}

/** A directed edge between two nodes (parent to child: the direction the layers flow). */
export interface LayoutEdgeInput {
  id: string;
  source: string;
  target: string;
}

/** A graph to lay out. */
export interface LayoutGraphInput {
  nodes: readonly LayoutNodeInput[];
  edges: readonly LayoutEdgeInput[];
}

/** Where layers flow: `RIGHT` puts sources on the left (time flows left to right). */
export type LayoutDirection = "RIGHT" | "DOWN" | "LEFT" | "UP";

/** Layout options; every field has a default. */
export interface LayoutOptions {
  /** Default `RIGHT`. */
  direction?: LayoutDirection;
  /** Gap between nodes of one layer (px, default 24). */
  nodeSpacing?: number;
  /** Gap between layers (px, default 64). */
  layerSpacing?: number;
  /**
   * Keep the given node order inside each layer where crossings allow (default true): a graph that grows keeps
   * its nodes where they were instead of reshuffling.
   */
  keepOrder?: boolean;
  /**
   * One quick pass for a big graph someone is editing (default false): longest-path layering, linear-segment
   * placement, the lowest thoroughness, no model order (`keepOrder` is ignored) and polyline routing — at 300
   * nodes several times faster than the default passes, with long chains still straight.
   */
  fast?: boolean;
}

/** A node's top-left corner. */
export interface LayoutPosition {
  x: number;
  y: number;
}

/** The result: a position per node id and the size of the whole drawing. */
export interface LayoutResult {
  positions: Record<string, LayoutPosition>;
  width: number;
  height: number;
}
