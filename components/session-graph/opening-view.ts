/**
 * Where the session graph's view opens (pure; use-graph-framing.ts applies it):
 * - a graph that fits its pane whole at FIT_MIN_ZOOM or more is framed whole (below FAR_ZOOM its nodes draw their
 *   far look, names in large type, so they read at about 11 px on screen even at FIT_MIN_ZOOM);
 * - a larger one is framed on its focus (the session the URL names, the first failure, else the selection, else the
 *   root) together with the sessions it was made from, and theirs too when all of those fit at FIT_MIN_ZOOM or more
 *   (a merge's output shows the branches it joined); when not even the parents fit, the focus sits at the right of
 *   the pane with its parents leading in from the left, as far as they fit. The selection (a finished run's output,
 *   when the focus is a failure) joins the frame when it fits with the focus and its parents at FIT_MIN_ZOOM or more,
 *   before the grandparents do: the session the panel beside shows is then wholly in view, not cut at the pane's edge.
 * Every frame keeps nodes out of the padding, which holds the band the overlays (zoom controls) cover (overlayInsets).
 */

/** The least zoom a whole graph (or a focus's neighbourhood) opens at: far-look names are ~11 px on screen here. */
export const FIT_MIN_ZOOM = 0.5;

/** Below this zoom the nodes draw their far look (graph-nodes.tsx): a 12 px name would be under 11 px on screen. */
export const FAR_ZOOM = 0.92;

/** The far look's name size (px in graph units): 11 px on screen at FIT_MIN_ZOOM. */
export const FAR_NAME_PX = 22;

/** The zoom a focus's neighbourhood opens at, at most (the near look, at its natural size). */
export const FOCUS_MAX_ZOOM = 1;

/** A node's box in graph units. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Padding of a frame in px on screen. */
export interface Insets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** An xyflow viewport: screen = graph × zoom + (x, y). */
export interface ViewportBox {
  x: number;
  y: number;
  zoom: number;
}

function union(boxes: readonly Box[]): Box {
  const left = Math.min(...boxes.map((box) => box.x));
  const top = Math.min(...boxes.map((box) => box.y));
  const right = Math.max(...boxes.map((box) => box.x + box.width));
  const bottom = Math.max(...boxes.map((box) => box.y + box.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** The zoom at which `bounds` fills the padded pane (unclamped). */
export function fitZoom(bounds: { width: number; height: number }, pane: { width: number; height: number }, insets: Insets): number {
  const width = pane.width - insets.left - insets.right;
  const height = pane.height - insets.top - insets.bottom;
  return Math.min(width / Math.max(1, bounds.width), height / Math.max(1, bounds.height));
}

/** Whether a graph of `bounds` opens framed whole in this pane (it fits at FIT_MIN_ZOOM or more). */
export function opensWhole(bounds: { width: number; height: number }, pane: { width: number; height: number }, insets: Insets): boolean {
  return fitZoom(bounds, pane, insets) >= FIT_MIN_ZOOM;
}

/**
 * The viewport showing `focus` with its `parents`, and with the `selected` node and the `grandparents` when they fit
 * too at FIT_MIN_ZOOM (tried in this order: all of them, the selection without the grandparents, the grandparents
 * without the selection): the group centred at the zoom that fits it (between FIT_MIN_ZOOM and FOCUS_MAX_ZOOM); when
 * it does not fit even at FIT_MIN_ZOOM, the focus sits at the right of the padded pane (vertically centred on it) and
 * the parents lead in from the left as far as the pane shows them.
 */
export function neighbourhoodViewport(focus: Box, parents: readonly Box[], pane: { width: number; height: number }, insets: Insets, grandparents: readonly Box[] = [], selected: Box | null = null): ViewportBox {
  const extra = selected === null ? [] : [selected];
  const candidates = [[...extra, ...grandparents], extra, grandparents].filter((more) => more.length > 0).map((more) => union([focus, ...parents, ...more]));
  const group = candidates.find((candidate) => fitZoom(candidate, pane, insets) >= FIT_MIN_ZOOM) ?? union([focus, ...parents]);
  const width = pane.width - insets.left - insets.right;
  const height = pane.height - insets.top - insets.bottom;
  const zoom = Math.min(FOCUS_MAX_ZOOM, Math.max(FIT_MIN_ZOOM, fitZoom(group, pane, insets)));
  const centred = (start: number, size: number, groupStart: number, groupSize: number) => start + (size - groupSize * zoom) / 2 - groupStart * zoom;
  // A group framed at the zoom that exactly fits it fills the padded pane (up to rounding: 808 × (444 / 808) > 444).
  const fits = (size: number, room: number) => size * zoom <= room + 0.5;
  let x: number;
  if (fits(group.width, width)) x = centred(insets.left, width, group.x, group.width);
  else if (focus.width * zoom <= width) x = insets.left + width - (focus.x + focus.width) * zoom;
  else x = insets.left - focus.x * zoom;
  let y: number;
  if (fits(group.height, height)) y = centred(insets.top, height, group.y, group.height);
  else y = centred(insets.top, height, focus.y, focus.height);
  return { x, y, zoom };
}

/** A box on screen in px (a DOMRect's edges). */
export interface ScreenRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The gap kept between a framed node and an overlay (px). */
const OVERLAY_GAP = 8;

/**
 * The padding of a frame in a pane: `margin` on every side, and for each overlay (the zoom controls, a corner stack)
 * the band it covers: the band from its top to the pane's bottom, unless that band and the top margin would take more
 * than half the pane's height (a short pane on a phone, where the stacked controls cover most of it): then the band
 * from its inner edge to the pane's side it sits on.
 */
export function overlayInsets(pane: ScreenRect, overlays: readonly ScreenRect[], margin: number): Insets {
  const insets = { top: margin, right: margin, bottom: margin, left: margin };
  const height = pane.bottom - pane.top;
  for (const overlay of overlays) {
    const below = Math.ceil(pane.bottom - overlay.top) + OVERLAY_GAP;
    if (margin + below <= height / 2) insets.bottom = Math.max(insets.bottom, below);
    else if (overlay.left + overlay.right > pane.left + pane.right) insets.right = Math.max(insets.right, Math.ceil(pane.right - overlay.left) + OVERLAY_GAP);
    else insets.left = Math.max(insets.left, Math.ceil(overlay.right - pane.left) + OVERLAY_GAP);
  }
  return insets;
}

/**
 * The viewport at `zoom` that puts `node` `left` px in from the pane's left edge (but never past the padded right
 * edge when `fitRight`, for a node wider than the pane), centred across in the padded band, so that the band the
 * overlays cover at the bottom stays clear of it.
 */
export function nodeAtLeft(node: Box, zoom: number, pane: { width: number; height: number }, insets: Insets, left: number, fitRight: boolean): ViewportBox {
  const start = left - node.x * zoom;
  const x = fitRight ? Math.min(start, pane.width - insets.right - (node.x + node.width) * zoom) : start;
  const y = insets.top + (pane.height - insets.top - insets.bottom) / 2 - (node.y + node.height / 2) * zoom;
  return { x, y, zoom };
}
