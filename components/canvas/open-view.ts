/**
 * How the editor fits a workflow into view: React Flow's fit-view options for the first view, and Fit View's after.
 * The first view is fitted, never blown up past 100 %. A big workflow (a 300-node graph) keeps the zoom at 50 % or
 * more and opens readable on its middle instead of as a grid of specks. A small one opens at 30 % or more, where the
 * far look's names read at about 11 px (canvas-nodes.tsx): whole in a laptop's pane; in a phone's pane, where a whole
 * template would be 17–21 % and unreadable, fitted to the pane's width from its left end — where the Input node is,
 * the session flowing left to right — with Fit View one click away.
 */
import type { NodePosition } from "../../runtime/workflow-spec/workflow-layout";
import { NODE_SIZE } from "./auto-layout";
import { BIG_WORKFLOW_NODES } from "./flow-projection";

/** A canvas pane at least this wide (a laptop's, beside the side panels) is not a phone's. */
export const WIDE_PANE = 600;

/** The least opening zoom of a small workflow: the far look's names are about 11 px on screen here. */
export const OPEN_MIN_ZOOM = 0.3;

const PADDING = 0.2;

/**
 * Fit View after the first view — the control, Shift+1 and after Auto-layout alike: the first view's padding, never
 * past 110 % (React Flow's own control would use its default padding and zoom up to the canvas's 200 %).
 */
export const FIT_VIEW = { padding: PADDING, maxZoom: 1.1, duration: 300 } as const;

/** Fit-view options of the first view (React Flow's `fitViewOptions`). */
export interface OpenFit {
  padding: number;
  minZoom: number;
  maxZoom: number;
  /** Fit these nodes only (a phone's pane); every node when absent. */
  nodes?: { id: string }[];
}

const BIG_OPEN_FIT: OpenFit = { padding: PADDING, minZoom: 0.5, maxZoom: 1 };
const WIDE_OPEN_FIT: OpenFit = { padding: PADDING, minZoom: OPEN_MIN_ZOOM, maxZoom: 1 };

/**
 * The nodes a narrow pane opens on: those whose box ends within the width the pane shows at OPEN_MIN_ZOOM (less the
 * padding), counted from the leftmost node. All of them when the workflow fits that width anyway.
 */
function leftEndNodes(nodes: readonly { id: string }[], positions: Readonly<Record<string, NodePosition>>, paneWidth: number): { id: string }[] | undefined {
  const placed = nodes.flatMap((node) => {
    const position = positions[node.id];
    return position === undefined ? [] : [{ id: node.id, x: position.x }];
  });
  if (placed.length === 0) return undefined;
  const left = Math.min(...placed.map((node) => node.x));
  // React Flow's numeric padding fits the bounds times (1 + padding) into the pane.
  const shown = paneWidth / (1 + PADDING) / OPEN_MIN_ZOOM;
  const inView = placed.filter((node) => node.x + NODE_SIZE.width - left <= shown);
  if (inView.length === placed.length) return undefined;
  // At least the leftmost node, even in a pane too narrow for one.
  return (inView.length > 0 ? inView : placed.filter((node) => node.x === left)).map((node) => ({ id: node.id }));
}

/** The fit-view options a workflow opens with, for its nodes and positions and the canvas pane's width. */
export function openFit(document: { nodes: readonly { id: string }[]; positions: Readonly<Record<string, NodePosition>> }, paneWidth: number): OpenFit {
  if (document.nodes.length > BIG_WORKFLOW_NODES) return BIG_OPEN_FIT;
  // A pane not measured yet (0) is taken for a wide one: the whole workflow, never one end of it by mistake.
  if (paneWidth === 0 || paneWidth >= WIDE_PANE) return WIDE_OPEN_FIT;
  const nodes = leftEndNodes(document.nodes, document.positions, paneWidth);
  return nodes === undefined ? WIDE_OPEN_FIT : { ...WIDE_OPEN_FIT, nodes };
}
