"use client";
/**
 * The session graph's minimap: the whole graph at a glance, sized to its shape and to the pane (minimap-size.ts),
 * (a thin one drawn as a ruler), with colour kept for state — failed sessions and chains in the failure colour, the selection in the accent,
 * running and waiting steps in theirs — and every node drawn at least a few pixels across, so a failure in a
 * 400-thread fan-out is still a visible mark. Drag or click it to move the view; scroll on it to zoom.
 */
import { MiniMap, useStore, type MiniMapNodeProps, type ReactFlowState } from "@xyflow/react";
import { memo, useMemo, type ComponentType } from "react";
import type { LayoutResult } from "../graph-layout/layout-types";
import type { GraphFlowNode } from "./graph-nodes";
import { isWideGraph, minimapScale, minimapSize } from "./minimap-size";

/** Room the pane keeps free around the minimap: the controls below it, the legend and the chain button beside it. */
const RESERVED = { below: 140, beside: 280 } as const;
/** Smallest mark of a node (px on screen); failures get a larger one. */
const MARK_PX = { node: 2, failed: 4 } as const;

const FAILED = "var(--rath-status-failed)";

/** The colour of a node's mark (CSS); state only, as everywhere else in the run view. */
export function minimapColor(node: GraphFlowNode): string {
  const data = node.data;
  if (data.kind === "failure" || ((data.kind === "session" || data.kind === "chain") && data.failed)) return FAILED;
  if (data.selected) return "var(--rath-accent)";
  if (data.kind === "pending") return data.status === "waiting" ? "var(--rath-status-waiting)" : "var(--rath-status-running)";
  return "var(--rath-muted)";
}

/**
 * Ruler mode: a graph much thinner than its box (a tall fan-out, a long chain) would be a sliver in the middle of
 * it, so every mark spans `span` graph units across the short side, centred on the graph's centre line — an
 * overview ruler whose rows are the graph's, read along the long side.
 */
interface Ruler {
  /** The short side: "x" for a tall graph, "y" for a wide one. */
  across: "x" | "y";
  centre: number;
  span: number;
}

/** A mark component drawing each node at least `nodeUnits` (graph units) across (failures `failedUnits`), centred on it. */
function markOfSize(nodeUnits: number, failedUnits: number, ruler: Ruler | null): ComponentType<MiniMapNodeProps> {
  function Mark({ x, y, width, height, color }: MiniMapNodeProps) {
    const failed = color === FAILED;
    const least = failed ? failedUnits : nodeUnits;
    let markWidth = Math.max(width, least);
    let markHeight = Math.max(height, least);
    let left = x + (width - markWidth) / 2;
    let top = y + (height - markHeight) / 2;
    if (ruler?.across === "x") [left, markWidth] = [ruler.centre - ruler.span / 2, ruler.span];
    if (ruler?.across === "y") [top, markHeight] = [ruler.centre - ruler.span / 2, ruler.span];
    return <rect x={left} y={top} width={markWidth} height={markHeight} rx={Math.min(markWidth, markHeight) / 4} fill={color} data-failed={failed || undefined} />;
  }
  return memo(Mark);
}

/** The most nodes along the graph's long side: layers (distinct x) of a wide graph, the fullest layer of a tall one. */
function nodesAlong(nodes: readonly GraphFlowNode[], wide: boolean): number {
  const perLayer = new Map<number, number>();
  for (const node of nodes) perLayer.set(Math.round(node.position.x), (perLayer.get(Math.round(node.position.x)) ?? 0) + 1);
  return wide ? perLayer.size : Math.max(0, ...perLayer.values());
}

const paneSize = (state: ReactFlowState) => `${state.width}x${state.height}`;

/** Props: the drawn nodes and their layout. */
export interface GraphMinimapProps {
  nodes: readonly GraphFlowNode[];
  layout: Pick<LayoutResult, "width" | "height">;
}

/** The minimap (shown from `md` up; on a phone the pane is too small for both). */
export function GraphMinimap({ nodes, layout }: GraphMinimapProps) {
  const [paneWidth, paneHeight] = useStore(paneSize).split("x").map(Number) as [number, number];
  const wide = isWideGraph(layout.width, layout.height);
  const along = useMemo(() => nodesAlong(nodes, wide), [nodes, wide]);
  const box = useMemo(
    () => minimapSize({ width: layout.width, height: layout.height, along }, { width: paneWidth - RESERVED.beside, height: paneHeight - RESERVED.below }),
    [layout.width, layout.height, along, paneWidth, paneHeight],
  );
  const scale = minimapScale(layout, box);
  // A graph drawn less than half as thick as its box becomes a ruler (see `Ruler`).
  const thin = (wide ? layout.height * scale < box.height / 2 : layout.width * scale < box.width / 2) ? (wide ? box.height : box.width) : null;
  const ruler = useMemo<Ruler | null>(
    () => (thin === null ? null : { across: wide ? "y" : "x", centre: (wide ? layout.height : layout.width) / 2, span: (thin * 0.6) / scale }),
    [thin, wide, layout.width, layout.height, scale],
  );
  const Mark = useMemo(() => markOfSize(MARK_PX.node / scale, MARK_PX.failed / scale, ruler), [scale, ruler]);
  return (
    <MiniMap<GraphFlowNode>
      pannable
      zoomable
      position="top-right"
      className="!hidden md:!block"
      style={box}
      ariaLabel="Overview of the whole graph: failed sessions in red, the selection in the accent colour"
      nodeColor={minimapColor}
      nodeComponent={Mark}
      maskColor="color-mix(in srgb, var(--rath-canvas) 55%, transparent)"
      maskStrokeColor="var(--rath-accent)"
      maskStrokeWidth={1.5}
    />
  );
}
