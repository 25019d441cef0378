/**
 * From the canvas document to React Flow's nodes and edges. Two layers, so a drag of one node among 300 touches
 * one object: `nodeData` (summary rows, problems, run status, diff mark — changes with the graph) and
 * `projectNodes` (position, selection, measured size — changes every frame of a drag), which reuses the
 * previous node object whenever nothing of it changed.
 */
import type { Edge, Node } from "@xyflow/react";
import type { NodePosition } from "../../runtime/workflow-spec/workflow-layout";
import { outputPort } from "../../runtime/workflow-spec/ports";
import type { NodeType, WorkflowEdge, WorkflowNode, WorkflowSettings } from "../../runtime/workflow-spec/workflow-spec";
import { nodeDisplayName } from "./canvas-document";
import { nodeSummary, type SummaryRow } from "./node-catalog";

/** A node's state in a run shown on the canvas. */
export type NodeRunStatus = "queued" | "running" | "waiting" | "succeeded" | "failed";

/** How a node or edge differs from the other revision of a diff. */
export type DiffMark = "added" | "removed" | "changed";

/** Everything a node component shows. */
export interface CanvasNodeData extends Record<string, unknown> {
  node: WorkflowNode;
  name: string;
  summary: SummaryRow[];
  problems: readonly string[];
  status?: NodeRunStatus;
  statusDetail?: string;
  diff?: DiffMark;
}

/** A React Flow node of the canvas. */
export type CanvasFlowNode = Node<CanvasNodeData, NodeType>;

/** Everything an edge shows. */
export interface CanvasEdgeData extends Record<string, unknown> {
  portType: "session" | "tool" | "memory";
  problems: readonly string[];
  diff?: DiffMark;
  /** A selector's candidate index, or "done". */
  tag?: string;
}

/** A React Flow edge of the canvas. */
export type CanvasFlowEdge = Edge<CanvasEdgeData, "workflow">;

/** What decorates the graph: problems by node/edge, run status by node, diff marks. */
export interface Decorations {
  readonly nodeProblems: ReadonlyMap<string, readonly string[]>;
  readonly edgeProblems: ReadonlyMap<string, readonly string[]>;
  readonly status: ReadonlyMap<string, { status: NodeRunStatus; detail?: string }>;
  readonly nodeDiff: ReadonlyMap<string, DiffMark>;
  readonly edgeDiff: ReadonlyMap<string, DiffMark>;
}

/** No decorations. */
export const NO_DECORATIONS: Decorations = { nodeProblems: new Map(), edgeProblems: new Map(), status: new Map(), nodeDiff: new Map(), edgeDiff: new Map() };

const NO_PROBLEMS: readonly string[] = [];

/** The data object of every node, by id. */
export function nodeData(
  nodes: readonly WorkflowNode[],
  edges: readonly WorkflowEdge[],
  settings: WorkflowSettings | undefined,
  decorations: Decorations,
): Map<string, CanvasNodeData> {
  const names = new Map(nodes.map((node) => [node.id, nodeDisplayName(node)]));
  const context = { edges, settings, nameOf: (id: string) => names.get(id) ?? id };
  const data = new Map<string, CanvasNodeData>();
  for (const node of nodes) {
    const status = decorations.status.get(node.id);
    const diff = decorations.nodeDiff.get(node.id);
    data.set(node.id, {
      node,
      name: names.get(node.id) ?? node.id,
      summary: nodeSummary(node, context),
      problems: decorations.nodeProblems.get(node.id) ?? NO_PROBLEMS,
      ...(status !== undefined ? { status: status.status, ...(status.detail !== undefined ? { statusDetail: status.detail } : {}) } : {}),
      ...(diff !== undefined ? { diff } : {}),
    });
  }
  return data;
}

/** Measured sizes reported by React Flow, kept so re-projected nodes stay visible without re-measuring. */
export type MeasuredSizes = Map<string, { width: number; height: number }>;

/** Positions, selection and sizes applied to the data; `previous` lends unchanged node objects. */
export function projectNodes(
  order: readonly WorkflowNode[],
  data: ReadonlyMap<string, CanvasNodeData>,
  positions: Readonly<Record<string, NodePosition>>,
  dragging: Readonly<Record<string, NodePosition>> | null,
  selected: ReadonlySet<string>,
  measured: MeasuredSizes,
  previous: ReadonlyMap<string, CanvasFlowNode>,
  draggable: boolean,
): CanvasFlowNode[] {
  return order.map((workflowNode) => {
    const id = workflowNode.id;
    const position = dragging?.[id] ?? positions[id] ?? { x: 0, y: 0 };
    const nodeDataValue = data.get(id) as CanvasNodeData;
    const isSelected = selected.has(id);
    const size = measured.get(id);
    const before = previous.get(id);
    if (
      before !== undefined &&
      before.data === nodeDataValue &&
      before.position.x === position.x &&
      before.position.y === position.y &&
      before.selected === isSelected &&
      before.measured?.width === size?.width &&
      before.measured?.height === size?.height &&
      before.draggable === draggable
    ) {
      return before;
    }
    return {
      id,
      type: workflowNode.type,
      position,
      data: nodeDataValue,
      selected: isSelected,
      draggable,
      ...(size !== undefined ? { measured: size } : {}),
    };
  });
}

/** The edges, with their port type (style), problems, diff marks and a selector's candidate index. */
export function projectEdges(
  nodes: readonly WorkflowNode[],
  edges: readonly WorkflowEdge[],
  selected: ReadonlySet<string>,
  decorations: Decorations,
): CanvasFlowEdge[] {
  const typeOf = new Map(nodes.map((node) => [node.id, node.type]));
  const candidateIndex = new Map<string, number>();
  return edges.map((edge) => {
    const sourceType = typeOf.get(edge.source);
    const port = sourceType === undefined ? undefined : outputPort(sourceType, edge.sourcePort);
    let tag: string | undefined;
    if (sourceType === "selector") {
      if (edge.sourcePort === "done") tag = "done";
      else {
        const index = candidateIndex.get(edge.source) ?? 0;
        candidateIndex.set(edge.source, index + 1);
        tag = String(index);
      }
    }
    const diff = decorations.edgeDiff.get(edge.id);
    return {
      id: edge.id,
      type: "workflow",
      source: edge.source,
      sourceHandle: edge.sourcePort,
      target: edge.target,
      targetHandle: edge.targetPort,
      selected: selected.has(edge.id),
      data: {
        portType: port?.type ?? "session",
        problems: decorations.edgeProblems.get(edge.id) ?? NO_PROBLEMS,
        ...(diff !== undefined ? { diff } : {}),
        ...(tag !== undefined ? { tag } : {}),
      },
    };
  });
}
