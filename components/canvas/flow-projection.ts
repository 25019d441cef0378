/**
 * From the canvas document to React Flow's nodes and edges. Two layers, so a drag of one node among 300 touches
 * one object: `nodeData` (summary rows, problems, run status, diff mark — changes with the graph) and
 * `projectNodes` (position, selection, measured size — changes every frame of a drag), which reuses the
 * previous node object whenever nothing of it changed. `nodeData` and `projectEdges` reuse the previous objects
 * too when their content is the same, so an edit of one node among 300 redraws that node (and its wires) only.
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
  /** What the wire joins, for screen readers ("Wire from Input to Agent"). */
  name: string;
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
const EDGE_DOM_ATTRIBUTES = { "aria-hidden": true } as const;

/** Above this many nodes a workflow opens on its middle at 50 % or more instead of fitted whole (open-view.ts). */
export const BIG_WORKFLOW_NODES = 40;

/** Below this zoom nodes are drawn in their far look: label and status only (canvas-nodes.tsx). */
export const FAR_ZOOM = 0.45;

/**
 * Below this zoom (and from FAR_ZOOM up) nodes draw their middle look: the full card with its name grown against the
 * zoom so that it reads at about 11.5 px on screen (canvas.css); the 13 px name would be 6–11 px here.
 */
export const MID_ZOOM = 0.88;

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((value, index) => value === b[index]));
}

function sameRows(a: readonly SummaryRow[], b: readonly SummaryRow[]): boolean {
  return a.length === b.length && a.every((row, index) => row.label === b[index]?.label && row.value === b[index]?.value && row.muted === b[index]?.muted);
}

function sameData(a: CanvasNodeData, b: CanvasNodeData): boolean {
  return a.node === b.node && a.name === b.name && a.status === b.status && a.statusDetail === b.statusDetail && a.diff === b.diff && sameStrings(a.problems, b.problems) && sameRows(a.summary, b.summary);
}

/** The data object of every node, by id; an entry of `previous` with the same content is kept as it is. */
export function nodeData(
  nodes: readonly WorkflowNode[],
  edges: readonly WorkflowEdge[],
  settings: WorkflowSettings | undefined,
  decorations: Decorations,
  previous: ReadonlyMap<string, CanvasNodeData> = new Map(),
): Map<string, CanvasNodeData> {
  const names = new Map(nodes.map((node) => [node.id, nodeDisplayName(node)]));
  const context = { edges, settings, nameOf: (id: string) => names.get(id) ?? id };
  const data = new Map<string, CanvasNodeData>();
  for (const node of nodes) {
    const status = decorations.status.get(node.id);
    const diff = decorations.nodeDiff.get(node.id);
    const next: CanvasNodeData = {
      node,
      name: names.get(node.id) ?? node.id,
      summary: nodeSummary(node, context),
      problems: decorations.nodeProblems.get(node.id) ?? NO_PROBLEMS,
      ...(status !== undefined ? { status: status.status, ...(status.detail !== undefined ? { statusDetail: status.detail } : {}) } : {}),
      ...(diff !== undefined ? { diff } : {}),
    };
    const before = previous.get(node.id);
    data.set(node.id, before !== undefined && sameData(before, next) ? before : next);
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

function sameEdge(a: CanvasFlowEdge, b: CanvasFlowEdge): boolean {
  return (
    a.source === b.source &&
    a.target === b.target &&
    a.sourceHandle === b.sourceHandle &&
    a.targetHandle === b.targetHandle &&
    a.selected === b.selected &&
    a.data?.name === b.data?.name &&
    a.data?.portType === b.data?.portType &&
    a.data?.diff === b.data?.diff &&
    a.data?.tag === b.data?.tag &&
    sameStrings(a.data?.problems ?? NO_PROBLEMS, b.data?.problems ?? NO_PROBLEMS)
  );
}

/**
 * The edges, with their port type (style), problems, diff marks and a selector's candidate index; an edge of
 * `previous` with the same content is kept as it is.
 */
export function projectEdges(
  nodes: readonly WorkflowNode[],
  edges: readonly WorkflowEdge[],
  selected: ReadonlySet<string>,
  decorations: Decorations,
  previous: ReadonlyMap<string, CanvasFlowEdge> = new Map(),
): CanvasFlowEdge[] {
  const typeOf = new Map(nodes.map((node) => [node.id, node.type]));
  const names = new Map(nodes.map((node) => [node.id, nodeDisplayName(node)]));
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
    const next: CanvasFlowEdge = {
      id: edge.id,
      type: "workflow",
      source: edge.source,
      sourceHandle: edge.sourcePort,
      target: edge.target,
      targetHandle: edge.targetPort,
      selected: selected.has(edge.id),
      // Reached by keyboard through its focus target (canvas-edge.tsx), which comes after the nodes; the drawn
      // curve is hidden from screen readers, which meet the wire there.
      focusable: false,
      domAttributes: EDGE_DOM_ATTRIBUTES,
      data: {
        name: `Wire from ${names.get(edge.source) ?? edge.source}${edge.sourcePort === "out" ? "" : ` (${edge.sourcePort})`} to ${names.get(edge.target) ?? edge.target}${edge.targetPort === "in" ? "" : ` (${edge.targetPort})`}`,
        portType: port?.type ?? "session",
        problems: decorations.edgeProblems.get(edge.id) ?? NO_PROBLEMS,
        ...(diff !== undefined ? { diff } : {}),
        ...(tag !== undefined ? { tag } : {}),
      },
    };
    const before = previous.get(edge.id);
    return before !== undefined && sameEdge(before, next) ? before : next;
  });
}
