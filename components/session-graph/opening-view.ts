/**
 * Where the session graph's view opens (pure; use-graph-framing.ts applies it):
 * - a graph that fits its pane whole at FIT_MIN_ZOOM or more is framed whole (below FAR_ZOOM its nodes draw their
 *   far look, names in large type, so they read at about 11 px on screen even at FIT_MIN_ZOOM);
 * - a larger one is framed on its focus (the session the URL names, the first failure, else the selection, else the
 *   root) together with the sessions it was made from, and theirs too when all of those fit at FIT_MIN_ZOOM or more
 *   (a merge's output shows the branches it joined); when not even the parents fit, the focus sits at the right of
 *   the pane with its parents leading in from the left, as far as they fit.
 * Every frame keeps nodes out of the padding, whose bottom band is what the overlays (zoom controls) cover.
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
 * The viewport showing `focus` with its `parents` (and its `grandparents` when all fit at FIT_MIN_ZOOM): the group centred at the zoom that fits it (between FIT_MIN_ZOOM
 * and FOCUS_MAX_ZOOM); when it does not fit even at FIT_MIN_ZOOM, the focus sits at the right of the padded pane
 * (vertically centred on it) and the parents lead in from the left as far as the pane shows them.
 */
export function neighbourhoodViewport(focus: Box, parents: readonly Box[], pane: { width: number; height: number }, insets: Insets, grandparents: readonly Box[] = []): ViewportBox {
  const wider = union([focus, ...parents, ...grandparents]);
  const group = grandparents.length > 0 && fitZoom(wider, pane, insets) >= FIT_MIN_ZOOM ? wider : union([focus, ...parents]);
  const width = pane.width - insets.left - insets.right;
  const height = pane.height - insets.top - insets.bottom;
  const zoom = Math.min(FOCUS_MAX_ZOOM, Math.max(FIT_MIN_ZOOM, fitZoom(group, pane, insets)));
  const centred = (start: number, size: number, groupStart: number, groupSize: number) => start + (size - groupSize * zoom) / 2 - groupStart * zoom;
  let x: number;
  if (group.width * zoom <= width) x = centred(insets.left, width, group.x, group.width);
  else if (focus.width * zoom <= width) x = insets.left + width - (focus.x + focus.width) * zoom;
  else x = insets.left - focus.x * zoom;
  let y: number;
  if (group.height * zoom <= height) y = centred(insets.top, height, group.y, group.height);
  else y = centred(insets.top, height, focus.y, focus.height);
  return { x, y, zoom };
}
