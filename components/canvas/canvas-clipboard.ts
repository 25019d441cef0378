/**
 * Copy and paste as spec JSON: a selection is written as a small workflow spec (its nodes, the wires between
 * them, and their layout under `layout`), so it can be pasted into another workflow, another tab, or a text
 * file. Pasting gives every node a fresh id and offsets the positions; wires that leave the fragment are dropped.
 */
import { z } from "zod";
import { NodePosition } from "../../runtime/workflow-spec/workflow-layout";
import { NodeId, NodeType, WorkflowEdge, type WorkflowNode } from "../../runtime/workflow-spec/workflow-spec";
import { edgeIdOf, nextNodeId, type CanvasDocument } from "./canvas-document";

/** A node as copied: its type and id are checked, its config is kept as it is (validation judges it once pasted). */
const CopiedNode = z.looseObject({ id: NodeId, type: NodeType, config: z.record(z.string(), z.unknown()) });

/** The clipboard text's shape: a partial spec with positions. */
export const ClipboardFragment = z.object({
  version: z.literal(1),
  name: z.string().optional(),
  nodes: z.array(CopiedNode).min(1),
  edges: z.array(WorkflowEdge).default([]),
  layout: z.object({ nodes: z.record(z.string(), NodePosition) }).optional(),
});
export type ClipboardFragment = z.infer<typeof ClipboardFragment>;

/** The fragment for the nodes `ids` of `document` (null when none of them exists). */
export function copyFragment(document: CanvasDocument, ids: ReadonlySet<string>): ClipboardFragment | null {
  const nodes = document.nodes.filter((node) => ids.has(node.id));
  if (nodes.length === 0) return null;
  const edges = document.edges.filter((edge) => ids.has(edge.source) && ids.has(edge.target));
  const positions: Record<string, NodePosition> = {};
  for (const node of nodes) positions[node.id] = document.positions[node.id] ?? { x: 0, y: 0 };
  return { version: 1, name: "copied nodes", nodes: nodes as unknown as ClipboardFragment["nodes"], edges, layout: { nodes: positions } };
}

/** Reads clipboard text: the fragment, or a message saying why the text is not one. */
export function parseFragment(text: string): { ok: true; fragment: ClipboardFragment } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: "the clipboard does not hold workflow nodes (not JSON)" };
  }
  const parsed = ClipboardFragment.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, message: `the clipboard does not hold workflow nodes: ${issue ? `${issue.path.join(".") || "(root)"}: ${issue.message}` : "unknown shape"}` };
  }
  return { ok: true, fragment: parsed.data };
}

/**
 * The document with `fragment` added: fresh ids, positions moved by `offset` (or so the fragment's top-left lands
 * on `at`), and the ids of the new nodes.
 */
export function pasteFragment(
  document: CanvasDocument,
  fragment: ClipboardFragment,
  placement: { offset: NodePosition } | { at: NodePosition },
): { document: CanvasDocument; added: string[] } {
  const taken = new Set(document.nodes.map((node) => node.id));
  const rename = new Map<string, string>();
  const nodes: WorkflowNode[] = [];
  for (const node of fragment.nodes) {
    const id = nextNodeId(node.type, taken);
    taken.add(id);
    rename.set(node.id, id);
    nodes.push({ ...node, id } as unknown as WorkflowNode);
  }
  const stored = fragment.layout?.nodes ?? {};
  const points = fragment.nodes.map((node, index) => stored[node.id] ?? { x: index * 40, y: index * 40 });
  const minX = Math.min(...points.map((point) => point.x));
  const minY = Math.min(...points.map((point) => point.y));
  const shift = "offset" in placement ? placement.offset : { x: placement.at.x - minX, y: placement.at.y - minY };
  const positions = { ...document.positions };
  fragment.nodes.forEach((node, index) => {
    const point = points[index] as NodePosition;
    positions[rename.get(node.id) as string] = { x: point.x + shift.x, y: point.y + shift.y };
  });
  const edges: WorkflowEdge[] = [];
  for (const edge of fragment.edges) {
    const source = rename.get(edge.source);
    const target = rename.get(edge.target);
    if (source === undefined || target === undefined) continue;
    edges.push({ id: edgeIdOf(source, edge.sourcePort, target, edge.targetPort), source, sourcePort: edge.sourcePort, target, targetPort: edge.targetPort });
  }
  return {
    document: { ...document, nodes: [...document.nodes, ...nodes], edges: [...document.edges, ...edges], positions },
    added: nodes.map((node) => node.id),
  };
}
