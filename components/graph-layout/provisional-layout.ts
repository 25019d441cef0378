/**
 * Positions to show while the real layout of a changed graph is being computed: nodes that were laid out keep
 * their place; a new node goes one layer after its placed parent (below the parent's other children), a new root
 * below everything. Without an earlier layout it is the quick layered layout. Pure and linear.
 */
import type { LayoutGraphInput, LayoutOptions, LayoutResult } from "./layout-types";
import { quickLayout } from "./quick-layout";

/** Positions for `graph`, reusing `previous` (a layout of an earlier version of it) where it has them. */
export function provisionalLayout(previous: LayoutResult | null, graph: LayoutGraphInput, options: LayoutOptions = {}): LayoutResult {
  if (previous === null) return quickLayout(graph, options);
  const horizontal = (options.direction ?? "RIGHT") === "RIGHT" || options.direction === "LEFT";
  const nodeSpacing = options.nodeSpacing ?? 24;
  const layerSpacing = options.layerSpacing ?? 64;
  const sizes = new Map(graph.nodes.map((node) => [node.id, node]));
  const parentsOf = new Map<string, string[]>();
  for (const edge of graph.edges) {
    const list = parentsOf.get(edge.target);
    if (list === undefined) parentsOf.set(edge.target, [edge.source]);
    else list.push(edge.source);
  }
  const positions: LayoutResult["positions"] = {};
  let width = previous.width;
  let height = previous.height;
  // How far the stack of new children of each parent already reaches across the flow.
  const reach = new Map<string, number>();
  for (const node of graph.nodes) {
    const kept = previous.positions[node.id];
    if (kept !== undefined) positions[node.id] = { ...kept };
  }
  for (const node of graph.nodes) {
    if (positions[node.id] !== undefined) continue;
    const parentId = (parentsOf.get(node.id) ?? []).find((id) => positions[id] !== undefined);
    const parent = parentId === undefined ? undefined : positions[parentId];
    const parentSize = parentId === undefined ? undefined : sizes.get(parentId);
    let placed: { x: number; y: number };
    if (parent !== undefined && parentSize !== undefined && parentId !== undefined) {
      const across = reach.get(parentId) ?? (horizontal ? parent.y : parent.x);
      placed = horizontal ? { x: parent.x + parentSize.width + layerSpacing, y: across } : { x: across, y: parent.y + parentSize.height + layerSpacing };
      reach.set(parentId, across + (horizontal ? node.height : node.width) + nodeSpacing);
    } else {
      placed = horizontal ? { x: 0, y: height + nodeSpacing } : { x: width + nodeSpacing, y: 0 };
    }
    positions[node.id] = placed;
    width = Math.max(width, placed.x + node.width);
    height = Math.max(height, placed.y + node.height);
  }
  return { positions, width, height };
}
