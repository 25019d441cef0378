/**
 * The document the canvas edits: the spec's parts (name, description, settings, nodes, edges) plus the layout
 * (positions by node id), kept as separate fields so the exported spec never carries a position. Pure functions:
 * building a document from a saved revision, exporting spec and layout, new node ids and default configs.
 */
import type { NodePosition, WorkflowLayout } from "../../runtime/workflow-spec/workflow-layout";
import type { NodeType, WorkflowEdge, WorkflowNode, WorkflowSettings, WorkflowSpec } from "../../runtime/workflow-spec/workflow-spec";
import { isRecord } from "../../runtime/is-record";

/** What the editor holds for one workflow; `nodes` may be invalid while being edited (validation says so). */
export interface CanvasDocument {
  readonly name: string;
  readonly description?: string;
  readonly settings?: WorkflowSettings;
  readonly nodes: readonly WorkflowNode[];
  readonly edges: readonly WorkflowEdge[];
  readonly positions: Readonly<Record<string, NodePosition>>;
}

/** An empty workflow. */
export function emptyDocument(name: string): CanvasDocument {
  return { name, nodes: [], edges: [], positions: {} };
}

/**
 * A document from a stored spec and layout. Nodes without a stored position get a column-by-column placement so
 * nothing lands on top of another.
 */
export function documentFromSpec(spec: unknown, layout: unknown, fallbackName: string): CanvasDocument {
  const source = isRecord(spec) ? spec : {};
  const nodes = Array.isArray(source.nodes) ? (source.nodes as WorkflowNode[]) : [];
  const edges = Array.isArray(source.edges) ? (source.edges as WorkflowEdge[]) : [];
  const stored = isRecord(layout) && isRecord(layout.nodes) ? (layout.nodes as Record<string, NodePosition>) : {};
  const positions: Record<string, NodePosition> = {};
  nodes.forEach((node, index) => {
    const position = stored[node.id];
    positions[node.id] =
      position !== undefined && Number.isFinite(position.x) && Number.isFinite(position.y)
        ? { x: position.x, y: position.y }
        : { x: (index % 6) * 260, y: Math.floor(index / 6) * 160 };
  });
  return {
    name: typeof source.name === "string" && source.name.length > 0 ? source.name : fallbackName,
    ...(typeof source.description === "string" ? { description: source.description } : {}),
    ...(isRecord(source.settings) ? { settings: source.settings } : {}),
    nodes,
    edges,
    positions,
  };
}

/** Ids of `spec`'s nodes that `layout` gives no position (a spec written by hand or by the API). */
export function nodesWithoutPosition(spec: unknown, layout: unknown): string[] {
  const nodes = isRecord(spec) && Array.isArray(spec.nodes) ? (spec.nodes as { id?: unknown }[]) : [];
  const stored = isRecord(layout) && isRecord(layout.nodes) ? layout.nodes : {};
  return nodes.map((node) => node?.id).filter((id): id is string => typeof id === "string" && !isRecord(stored[id]));
}

/** The spec of a document, in the order the document holds it (what Save, Export and Copy write). */
export function toSpec(document: CanvasDocument): WorkflowSpec {
  return {
    version: 1,
    name: document.name,
    ...(document.description !== undefined ? { description: document.description } : {}),
    nodes: [...document.nodes],
    edges: [...document.edges],
    ...(document.settings !== undefined ? { settings: document.settings } : {}),
  };
}

/** The layout of a document: positions of the nodes it has (rounded to whole pixels). */
export function toLayout(document: CanvasDocument): WorkflowLayout {
  const nodes: Record<string, NodePosition> = {};
  for (const node of document.nodes) {
    const position = document.positions[node.id];
    if (position !== undefined) nodes[node.id] = { x: Math.round(position.x), y: Math.round(position.y) };
  }
  return { nodes };
}

/** A node id of the form `<type>-<n>` not used in `taken`. */
export function nextNodeId(type: NodeType, taken: ReadonlySet<string>): string {
  for (let index = 1; ; index++) {
    const candidate = `${type}-${index}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The id of a wire, readable and unique per port pair. */
export function edgeIdOf(source: string, sourcePort: string, target: string, targetPort: string): string {
  return `${source}.${sourcePort}->${target}.${targetPort}`;
}

/** A new node of `type` with a config that is valid where it can be (an agent's name, a memory store...). */
export function newNode(type: NodeType, id: string): WorkflowNode {
  // Not parsed: a Sub-workflow starts without a workflow, which validation then points out on the node.
  return { id, type, config: defaultConfig(type, id) } as WorkflowNode;
}

function defaultConfig(type: NodeType, id: string): Record<string, unknown> {
  switch (type) {
    case "agent":
      return { name: id.replace(/[^A-Za-z0-9_-]/g, "_"), instructions: "" };
    case "tool":
      return { kind: "builtin", name: "read_workspace_file" };
    case "selector":
      return { instructions: "" };
    case "memory":
      return { store: "notes", scope: "agent", recall: true, commit: true };
    case "approval":
      return { prompt: "Approve the next step?" };
    case "subworkflow":
      return { workflowId: "" };
    default:
      return {};
  }
}

/** A short human title for a node type ("Sub-workflow"). */
export function nodeTypeTitle(type: NodeType): string {
  return type === "subworkflow" ? "Sub-workflow" : `${type.charAt(0).toUpperCase()}${type.slice(1)}`;
}

/** What is shown as a node's name: its label, an agent's name, a tool's name, else the type title. */
export function nodeDisplayName(node: WorkflowNode): string {
  if (node.label !== undefined && node.label.trim() !== "") return node.label;
  if (node.type === "agent" && node.config.name) return node.config.name;
  if (node.type === "tool") return node.config.kind === "mcp" ? node.config.server.name : node.config.name;
  return nodeTypeTitle(node.type);
}
