/**
 * Auto-layout of the canvas with ELK in a web worker (components/graph-layout, shared with the run view):
 * session flow left to right; tools and memory are laid out as the agents' predecessors so they sit beside them.
 * A big workflow gets ELK's quick pass.
 */
import type { GraphLayoutEngine } from "../graph-layout/layout-engine";
import type { NodePosition } from "../../runtime/workflow-spec/workflow-layout";
import type { CanvasDocument } from "./canvas-document";

/** Above this many nodes ELK runs its one quick pass (layout-types.ts `fast`): under a second at 300 nodes. */
export const FAST_LAYOUT_ABOVE = 120;

/** Default node size before React Flow measured it. */
export const NODE_SIZE = { width: 232, height: 118 } as const;

/** New positions for every node of `document`, and how long ELK took. */
export async function autoLayout(
  engine: GraphLayoutEngine,
  document: CanvasDocument,
  sizeOf: (nodeId: string) => { width: number; height: number } | undefined,
): Promise<{ positions: Record<string, NodePosition>; elapsedMs: number; thread: string }> {
  const answer = await engine.layout(
    {
      nodes: document.nodes.map((node) => ({ id: node.id, ...(sizeOf(node.id) ?? NODE_SIZE) })),
      edges: document.edges.map((edge) => ({ id: edge.id, source: edge.source, target: edge.target })),
    },
    { direction: "RIGHT", nodeSpacing: 40, layerSpacing: 96, keepOrder: true, fast: document.nodes.length > FAST_LAYOUT_ABOVE },
  );
  const positions: Record<string, NodePosition> = {};
  for (const [id, position] of Object.entries(answer.result.positions)) positions[id] = { x: Math.round(position.x / 16) * 16, y: Math.round(position.y / 16) * 16 };
  return { positions, elapsedMs: answer.elapsedMs, thread: answer.thread };
}
