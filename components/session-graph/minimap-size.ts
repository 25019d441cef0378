/**
 * The minimap's box follows the graph's shape. A graph of ordinary proportions gets at most 200 × 150. A long chain
 * or a tall fan-out would be a thin strip in that box (a 400-session fan-out was 48 × 150, each session a third of a
 * pixel), so its long side grows into the room the graph pane has — up to `MINIMAP_BOX.maxLong` — until each drawn
 * node is about `MINIMAP_BOX.rowPixels` high (or wide), like an editor's overview ruler; the short side keeps the
 * graph's proportion but never drops below `minSide`, so the box stays easy to hit. Pure.
 */

/** The ordinary box (px), the smallest short side, the longest long side, and the aimed-for size of a node. */
export const MINIMAP_BOX = { width: 200, height: 150, minSide: 56, maxLong: 520, rowPixels: 3 } as const;

/** The laid-out graph: its size, and how many nodes lie along its long side at most (rows of a fan-out, layers of a chain). */
export interface MinimapGraph {
  width: number;
  height: number;
  /** The most nodes stacked along the long side (e.g. the 400 threads of a fan-out). */
  along: number;
}

/** Room the graph pane leaves for the minimap (px). */
export interface MinimapRoom {
  width: number;
  height: number;
}

/** Whether a graph of this size is laid along the minimap's width (wider than the ordinary box), else its height. */
export function isWideGraph(width: number, height: number): boolean {
  return Math.max(1, width) / Math.max(1, height) >= MINIMAP_BOX.width / MINIMAP_BOX.height;
}

/** The minimap's size for a laid-out graph, in a pane with `room` to spare. */
export function minimapSize(graph: MinimapGraph, room: MinimapRoom = { width: MINIMAP_BOX.width, height: MINIMAP_BOX.height }): { width: number; height: number } {
  const ratio = Math.max(1, graph.width) / Math.max(1, graph.height);
  const wide = isWideGraph(graph.width, graph.height);
  const ordinaryLong = wide ? MINIMAP_BOX.width : MINIMAP_BOX.height;
  const roomLong = Math.max(ordinaryLong, Math.min(MINIMAP_BOX.maxLong, Math.floor(wide ? room.width : room.height)));
  // Long enough for every node along the long side to get `rowPixels`, within the room; never shorter than usual.
  const long = Math.min(roomLong, Math.max(ordinaryLong, Math.ceil(Math.max(1, graph.along) * MINIMAP_BOX.rowPixels)));
  const short = Math.max(MINIMAP_BOX.minSide, Math.min(wide ? MINIMAP_BOX.height : MINIMAP_BOX.width, Math.round(wide ? long / ratio : long * ratio)));
  return wide ? { width: long, height: short } : { width: short, height: long };
}

/** How many px of the minimap one unit of the graph takes (the box shows the whole graph, letterboxed). */
export function minimapScale(graph: Pick<MinimapGraph, "width" | "height">, box: { width: number; height: number }): number {
  return Math.min(box.width / Math.max(1, graph.width), box.height / Math.max(1, graph.height));
}
