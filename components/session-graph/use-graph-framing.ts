"use client";
/**
 * Where the session graph's view goes, and when it moves on its own:
 * - on open (once the final layout is in), as opening-view.ts decides: a graph that fits whole at FIT_MIN_ZOOM or more
 *   (its nodes in their far look below FAR_ZOOM, names still ~11 px on screen) is framed whole; a larger one opens on
 *   its focus (the URL's session or the first failure, else the selection — a finished run's output) together with
 *   the sessions it was made from; a live run without such a focus opens on the session it follows (its newest) at a
 *   readable zoom; else on its root;
 * - while the person has not panned or zoomed, a graph framed whole is framed again as it grows, and a live run's
 *   newest session (`followNodeId`) is kept in view (the view slides left as time grows to the right);
 *   `follow()` resumes that after a pan or zoom;
 * - a chain the person opens is brought into view (its start when it is too long to show whole);
 * - a selection made elsewhere (URL, timeline, "Jump to failure") scrolls its node into view, once drawn;
 * - after "Collapse chains" the graph is framed afresh, as on open.
 * A frame, and a followed node, keep out of the band the overlays cover (the zoom controls, and any element marked
 * `data-graph-overlay`; the legend is a strip below the pane, not over it): at the bottom, or beside them in a pane too
 * short for that (overlayInsets in opening-view.ts). In `present` mode (the demo replay) the graph is always framed whole, again whenever it grows,
 * is laid out again or its pane changes size, and never scrolled to the selection: an audience sees all of it.
 */
import { useReactFlow, type ReactFlowInstance, type Viewport } from "@xyflow/react";
import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import type { LayoutResult } from "../graph-layout/layout-types";
import type { GraphFlowNode } from "./graph-nodes";
import { FIT_MIN_ZOOM, neighbourhoodViewport, nodeAtLeft, opensWhole, overlayInsets, type Box, type Insets, type ScreenRect } from "./opening-view";
import type { PaneSize } from "./use-pane-size";

/**
 * Below this zoom a node's near look (12 px name) reads smaller than 11 px on screen: a followed session is kept in
 * view at FOCUS_ZOOM rather than at a zoom this low.
 */
export const MIN_READABLE_ZOOM = 0.92;
const FOCUS_ZOOM = 1;
const FIT_PADDING = 0.15;
const FIT_MAX_ZOOM = 1.1;

type FitPadding = { top: `${number}px`; right: `${number}px`; bottom: `${number}px`; left: `${number}px` };

/**
 * Fit padding in px: a margin on every side, and the band the overlays cover (overlayInsets). Reads the layout (the
 * container's and the overlays' boxes): `found` says whether an overlay was there to measure.
 */
function fitPadding(container: HTMLElement): { padding: FitPadding; found: boolean } {
  const box = container.getBoundingClientRect();
  const margin = Math.round(Math.min(box.width, box.height) * 0.06) + 8;
  const overlays: ScreenRect[] = [];
  for (const overlay of container.querySelectorAll<HTMLElement>("[data-graph-overlay], .react-flow__controls")) {
    const rect = overlay.getBoundingClientRect();
    if (rect.height > 0 && rect.width > 0) overlays.push(rect);
  }
  const insets = overlayInsets(box, overlays, margin);
  return { padding: { top: `${insets.top}px`, right: `${insets.right}px`, bottom: `${insets.bottom}px`, left: `${insets.left}px` }, found: overlays.length > 0 };
}

/**
 * A pane's fit padding, measured once per pane size: the overlays sit at fixed places in the pane, so it changes only
 * with the pane's size. Measuring reads the layout (a forced layout in the middle of a commit when done at every live
 * step); a padding measured before any overlay was there is not kept.
 */
export function paddingCache(measure: (container: HTMLElement) => { padding: FitPadding; found: boolean }): (container: HTMLElement, pane: PaneSize) => FitPadding {
  let kept: { key: string; padding: FitPadding } | null = null;
  return (container, pane) => {
    const key = `${pane.width}x${pane.height}`;
    if (kept?.key === key) return kept.padding;
    const { padding, found } = measure(container);
    kept = found ? { key, padding } : null;
    return padding;
  };
}

/**
 * Whether a move of the view glides (`GLIDE_MS`) or is set at once: a view that moved on its own less than
 * `GLIDE_SPACING_MS` ago is set at once, so a live run that grows faster than that does not keep the view gliding (and
 * the graph redrawing at every frame) from one step to the next; a step after a pause glides.
 */
export function glideDuration(now: number, lastMove: number | null): number | undefined {
  return lastMove !== null && now - lastMove < GLIDE_SPACING_MS ? undefined : GLIDE_MS;
}
const GLIDE_MS = 200;
const GLIDE_SPACING_MS = 1000;

/** The padding in numbers. */
function insetsOf(padding: FitPadding): Insets {
  const px = (value: string) => Number.parseFloat(value);
  return { top: px(padding.top), right: px(padding.right), bottom: px(padding.bottom), left: px(padding.left) };
}

function boxOf(node: GraphFlowNode): Box {
  return { x: node.position.x, y: node.position.y, width: node.width ?? 0, height: node.height ?? 0 };
}

/**
 * Frames `focus` with the nodes it was made from (its parents in the drawn graph, and theirs when they fit) and the
 * `selected` node when it fits too, as opening-view.ts decides.
 */
function frameNeighbourhood(flow: Flow, focus: GraphFlowNode, selected: GraphFlowNode | undefined, nodes: readonly GraphFlowNode[], edges: readonly GraphEdgeEnds[], bounds: Bounds, padding: FitPadding): void {
  const sourcesOf = (targets: ReadonlySet<string>) => new Set(edges.filter((edge) => targets.has(edge.target)).map((edge) => edge.source));
  const parentIds = sourcesOf(new Set([focus.id]));
  const grandparentIds = sourcesOf(parentIds);
  const boxes = (ids: ReadonlySet<string>) => nodes.filter((node) => ids.has(node.id) && node.id !== focus.id).map(boxOf);
  void flow.setViewport(neighbourhoodViewport(boxOf(focus), boxes(parentIds), bounds, insetsOf(padding), boxes(grandparentIds), selected === undefined || selected.id === focus.id ? null : boxOf(selected)));
}

type Bounds = { width: number; height: number };
type Flow = Pick<ReactFlowInstance, "fitView" | "getViewport" | "setViewport" | "setCenter">;

const NO_INSETS: Insets = { top: 0, right: 0, bottom: 0, left: 0 };

/** Whether `node` lies wholly inside a container of `bounds` at `viewport`, inside its `insets` (none: the whole pane). */
function isInView(viewport: Viewport, node: GraphFlowNode, bounds: Bounds, insets: Insets = NO_INSETS): boolean {
  const left = node.position.x * viewport.zoom + viewport.x;
  const top = node.position.y * viewport.zoom + viewport.y;
  return left >= insets.left && top >= insets.top && left + (node.width ?? 0) * viewport.zoom <= bounds.width - insets.right && top + (node.height ?? 0) * viewport.zoom <= bounds.height - insets.bottom;
}

/** Puts `node` at the left edge (24 px in), centred across in the padded band, at `zoom`. */
function startAt(flow: Flow, node: GraphFlowNode, bounds: Bounds, padding: FitPadding, zoom: number, duration?: number): void {
  void flow.setViewport(nodeAtLeft(boxOf(node), zoom, bounds, insetsOf(padding), 24, false), duration === undefined ? undefined : { duration });
}

/**
 * Brings the sessions of a chain just opened into view: all of them when they fit at a readable zoom, else the
 * chain's start at the opening zoom (the rest follows to the right).
 */
function revealNodes(flow: Flow, nodes: readonly GraphFlowNode[], ids: readonly string[], bounds: Bounds, padding: FitPadding): void {
  const wanted = new Set(ids);
  const members = nodes.filter((node) => wanted.has(node.id));
  const first = members[0];
  if (first === undefined) return;
  const left = Math.min(...members.map((node) => node.position.x));
  const top = Math.min(...members.map((node) => node.position.y));
  const right = Math.max(...members.map((node) => node.position.x + (node.width ?? 0)));
  const bottom = Math.max(...members.map((node) => node.position.y + (node.height ?? 0)));
  const fitZoom = Math.min(bounds.width / Math.max(1, right - left), bounds.height / Math.max(1, bottom - top)) / (1 + 2 * FIT_PADDING);
  if (fitZoom >= FIT_MIN_ZOOM) {
    void flow.fitView({ nodes: members.map((node) => ({ id: node.id })), padding, maxZoom: FIT_MAX_ZOOM, duration: 200 });
    return;
  }
  startAt(flow, first, bounds, padding, Math.max(flow.getViewport().zoom, FOCUS_ZOOM), 200);
}

/**
 * Brings `node` into view at a readable zoom when it is not wholly in the padded pane (out of the overlays' band),
 * centred across in the padded band: at the pane's left edge
 * (24 px in), so the step running after it, drawn to its right, shows as far as the pane allows (at 1280 px wide the
 * 498 px pane cannot hold both whole at a readable zoom); only a node wider than the pane is aligned on its right edge.
 */
function keepInView(flow: Flow, node: GraphFlowNode, bounds: Bounds, padding: FitPadding, duration?: number): void {
  const viewport = flow.getViewport();
  const insets = insetsOf(padding);
  if (viewport.zoom >= MIN_READABLE_ZOOM && isInView(viewport, node, bounds, insets)) return;
  const zoom = Math.max(viewport.zoom, FOCUS_ZOOM);
  void flow.setViewport(nodeAtLeft(boxOf(node), zoom, bounds, insets, 24, true), duration === undefined ? undefined : { duration });
}

/** A drawn edge's ends (node ids). */
export interface GraphEdgeEnds {
  source: string;
  target: string;
}

/** What the graph tells the framing. */
export interface GraphFramingInput {
  /** The graph's container (its size decides the zooms). */
  container: RefObject<HTMLDivElement | null>;
  /** The container's size as `usePaneSize` follows it (null until measured). */
  paneSize: PaneSize | null;
  nodes: readonly GraphFlowNode[];
  /** The drawn edges (a focus opens with the nodes its edges come from). */
  edges: readonly GraphEdgeEnds[];
  source: "provisional" | "elk" | "quick";
  layout: LayoutResult;
  selectedNodeId: string | null;
  /** Where a graph too large to show whole opens (null: the followed node, else the selection, else its root). */
  focusNodeId: string | null;
  /** The node a live run's view keeps in view while the person has not moved it (null: none). */
  followNodeId?: string | null;
  /** Always framed whole, never scrolled to the selection (the demo replay). */
  present?: boolean;
}

/** Handles for the graph. */
export interface GraphFraming {
  /** Before a chain opens: its sessions are brought into view once laid out. */
  revealAfterOpening: (sessionIds: readonly string[]) => void;
  /** Before every chain closes: the graph is framed afresh. */
  reframe: () => void;
  /** xyflow's `onMove`: a real pan or zoom by the person (a click also starts a gesture, but never moves). */
  onMove: (event: MouseEvent | TouchEvent | null) => void;
  /** Whether the person panned or zoomed (the view no longer moves on its own). */
  userMoved: boolean;
  /** Resume following: the view moves on its own again, to the followed node at once. */
  follow: () => void;
}

/** The framing of one graph (inside its ReactFlowProvider). */
export function useGraphFraming({ container, paneSize, nodes, edges, source, layout, selectedNodeId, focusNodeId, followNodeId = null, present = false }: GraphFramingInput): GraphFraming {
  const flow = useReactFlow();
  const framed = useRef(false);
  const lastCentred = useRef<string | null>(null);
  // A ref for the effects (read without re-running them) and its state twin for the "Follow" button.
  const userMoved = useRef(false);
  const [moved, setMoved] = useState(false);
  const lastFollowed = useRef<string | null>(null);
  const framedCount = useRef(0);
  const framedWhole = useRef(false);
  const revealing = useRef<readonly string[] | null>(null);
  const fittedPane = useRef<string | null>(null);
  // When the view last moved on its own (a live run's steps close together are not glided one after the other).
  const lastMove = useRef<number | null>(null);
  const [padded] = useState(() => paddingCache(fitPadding));

  // Presenting: the whole graph, whenever it or its pane changes (the pane shrinks as the chunk list fills on a phone).
  // A graph that grew or was laid out again glides to its new frame; on open, and when the pane changed size, the
  // frame is set at once (gliding from a frame computed for another pane size would sweep the graph across it).
  useEffect(() => {
    const element = container.current;
    if (!present || element === null || paneSize === null || nodes.length === 0 || (source === "provisional" && nodes.length > 1)) return;
    const pane = `${paneSize.width}x${paneSize.height}`;
    const glide = framed.current && fittedPane.current === pane;
    framed.current = true;
    fittedPane.current = pane;
    void flow.fitView({ padding: padded(element, paneSize), maxZoom: FIT_MAX_ZOOM, minZoom: 0.05, ...(glide ? { duration: 200 } : {}) });
  }, [container, padded, present, nodes, source, flow, layout, paneSize]);

  useEffect(() => {
    if (present || nodes.length === 0) return;
    if (source === "provisional" && nodes.length > 1) return;
    // The pane's size as use-pane-size follows it, and its padding measured once per size: no layout is read here at
    // every live step (the effect runs on each `nodes` change).
    const element = container.current;
    const bounds = paneSize;
    if (element === null || bounds === null || bounds.width === 0 || bounds.height === 0) return;
    const members = revealing.current;
    if (members !== null && nodes.some((node) => node.id === members[0])) {
      revealing.current = null;
      framedCount.current = nodes.length;
      // The selection's node may have changed with the opening (it was the chain): this view wins over scrolling to it.
      lastCentred.current = selectedNodeId;
      revealNodes(flow, nodes, members, bounds, padded(element, bounds));
      return;
    }
    if (framed.current && userMoved.current) return;
    const followed = followNodeId === null ? undefined : nodes.find((node) => node.id === followNodeId);
    if (framed.current && nodes.length === framedCount.current && (followed === undefined || followed.id === lastFollowed.current)) return;
    const padding = padded(element, bounds);
    // On open, and when a graph framed whole outgrew a readable whole view, it opens as described above.
    const opening = !framed.current || framedWhole.current;
    const first = !framed.current;
    framed.current = true;
    framedCount.current = nodes.length;
    lastFollowed.current = followed?.id ?? null;
    framedWhole.current = opensWhole(layout, bounds, insetsOf(padding));
    // The (default) selection is not scrolled to on its own: the opening view is this one.
    lastCentred.current = selectedNodeId;
    const now = performance.now();
    const duration = first ? undefined : glideDuration(now, lastMove.current);
    lastMove.current = now;
    if (framedWhole.current) {
      void flow.fitView({ padding, maxZoom: FIT_MAX_ZOOM, minZoom: FIT_MIN_ZOOM, ...(duration === undefined ? {} : { duration }) });
      return;
    }
    // A live run's default selection is the session it follows: that one is kept in view below, not framed here.
    const focusId = focusNodeId ?? (followed === undefined ? selectedNodeId : null);
    const focus = opening && focusId !== null ? nodes.find((node) => node.id === focusId) : undefined;
    const selected = selectedNodeId === null ? undefined : nodes.find((node) => node.id === selectedNodeId);
    if (focus !== undefined) frameNeighbourhood(flow, focus, selected, nodes, edges, bounds, padding);
    else if (followed !== undefined) keepInView(flow, followed, bounds, padding, duration);
    else if (opening) startAt(flow, nodes[0] as GraphFlowNode, bounds, padding, FOCUS_ZOOM);
  }, [container, paneSize, padded, present, nodes, edges, source, flow, layout, selectedNodeId, focusNodeId, followNodeId, moved]);

  // A selection made elsewhere scrolls its node into view, once the node is drawn where the final layout puts it
  // (a selection inside a chain first opens the chain).
  useEffect(() => {
    if (present || selectedNodeId === null || selectedNodeId === lastCentred.current || !framed.current || source === "provisional") return;
    // The followed node is the default selection of a live run: following it is the framing effect's job.
    if (selectedNodeId === followNodeId) return;
    const node = nodes.find((entry) => entry.id === selectedNodeId);
    const bounds = paneSize;
    if (node === undefined || bounds === null) return;
    lastCentred.current = selectedNodeId;
    const viewport = flow.getViewport();
    if (!isInView(viewport, node, bounds)) {
      void flow.setCenter(node.position.x + (node.width ?? 0) / 2, node.position.y + (node.height ?? 0) / 2, { zoom: Math.max(viewport.zoom, FOCUS_ZOOM), duration: 250 });
    }
  }, [paneSize, present, selectedNodeId, flow, nodes, source, followNodeId]);

  const revealAfterOpening = useCallback((sessionIds: readonly string[]) => {
    revealing.current = sessionIds;
  }, []);
  const reframe = useCallback(() => {
    framed.current = false;
    userMoved.current = false;
    setMoved(false);
  }, []);
  const onMove = useCallback((event: MouseEvent | TouchEvent | null) => {
    if (event === null) return;
    userMoved.current = true;
    setMoved(true);
  }, []);
  const follow = useCallback(() => {
    userMoved.current = false;
    lastFollowed.current = null;
    setMoved(false);
  }, []);
  return { revealAfterOpening, reframe, onMove, userMoved: moved, follow };
}
