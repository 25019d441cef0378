/**
 * The projection (`toFlowGraph`) as xyflow nodes and edges, reusing the objects of the previous call wherever a node's
 * position and data, or an edge's ends and data, did not change. xyflow keeps an internal node only when the user
 * node is the same object, and the memoised node and edge components skip a render only when their data is: a live
 * step that grows one session (or a hover) so rebuilds and redraws that session's node alone. Pure; no React.
 */
import type { LineageFlowEdge } from "./graph-edge";
import type { GraphFlowNode } from "./graph-nodes";
import type { FlowProjection } from "./to-flow-graph";

/** Whether two data objects hold the same values (arrays compared item by item, one level deep). */
export function shallowEqual(left: Record<string, unknown>, right: Record<string, unknown>): boolean {
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => {
    const a = left[key];
    const b = right[key];
    if (a === b) return true;
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => item === b[index]);
  });
}

/** What the nodes are drawn with besides the projection. */
export interface FlowNodeInputs {
  projection: Pick<FlowProjection, "nodes">;
  positions: Readonly<Record<string, { x: number; y: number }>>;
  /** Canvas node labels by node id. */
  labels: Readonly<Record<string, string>>;
  selectedNodeId: string | null;
  highlightedNodes: ReadonlySet<string>;
}

/** The drawn nodes; `previous` (the last call's, by id) is read for reuse and replaced by this call's. */
export function flowNodes({ projection, positions, labels, selectedNodeId, highlightedNodes }: FlowNodeInputs, previous: Map<string, GraphFlowNode>): GraphFlowNode[] {
  const next = new Map<string, GraphFlowNode>();
  const list = projection.nodes.map((node) => {
    const position = positions[node.id] ?? { x: 0, y: 0 };
    const data = node.data;
    const nodeId = data.kind === "session" ? data.session.nodeId : data.kind === "chain" ? (data.sessions[0]?.nodeId ?? null) : data.nodeId;
    const extras = {
      label: nodeId === null ? null : (labels[nodeId] ?? null),
      selected: node.id === selectedNodeId,
      highlighted: highlightedNodes.has(node.id),
    };
    const nodeData = { ...data, ...extras };
    const before = previous.get(node.id);
    if (before !== undefined && before.position.x === position.x && before.position.y === position.y && before.width === node.width && before.height === node.height && shallowEqual(before.data, nodeData)) {
      next.set(node.id, before);
      return before;
    }
    const created = {
      id: node.id,
      type: data.kind,
      position,
      width: node.width,
      height: node.height,
      data: nodeData,
      draggable: false,
      connectable: false,
      selectable: false,
      // The wrapper is what a keyboard focuses and a screen reader names: it says which node is the selection.
      domAttributes: extras.selected ? { "aria-current": "true" } : undefined,
      ariaLabel:
        data.kind === "session"
          ? `Session ${extras.label ?? data.session.nodeId ?? data.session.id}, ${data.failed ? "failed" : data.session.lineage.lineage_kind}`
          : data.kind === "chain"
            ? `Chain of ${data.sessions.length} sessions, press Enter to expand`
            : undefined,
    } as GraphFlowNode;
    next.set(node.id, created);
    return created;
  });
  previous.clear();
  for (const [id, node] of next) previous.set(id, node);
  return list;
}

/** The drawn edges; `previous` (the last call's, by id) is read for reuse and replaced by this call's. */
export function flowEdges(projection: Pick<FlowProjection, "edges">, highlightedNodes: ReadonlySet<string>, previous: Map<string, LineageFlowEdge>): LineageFlowEdge[] {
  const next = new Map<string, LineageFlowEdge>();
  const list = projection.edges.map((edge) => {
    // Everything the projection says about the edge besides its ends (kind, failure path, ...) is its data.
    const { id: _id, source: _source, target: _target, ...projected } = edge;
    const data = { ...projected, highlighted: highlightedNodes.has(edge.source) || highlightedNodes.has(edge.target) };
    const before = previous.get(edge.id);
    if (before !== undefined && before.source === edge.source && before.target === edge.target && before.data !== undefined && shallowEqual(before.data, data)) {
      next.set(edge.id, before);
      return before;
    }
    const created: LineageFlowEdge = { id: edge.id, source: edge.source, target: edge.target, type: "lineage", selectable: false, focusable: false, data };
    next.set(edge.id, created);
    return created;
  });
  previous.clear();
  for (const [id, edge] of next) previous.set(id, edge);
  return list;
}

/** Whether two lists hold the same items in the same order (so the same list can be handed on). */
export function sameItems<T>(left: readonly T[], right: readonly T[]): boolean {
  return left.length === right.length && left.every((item, index) => item === right[index]);
}
