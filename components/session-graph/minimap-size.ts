/**
 * The minimap's box follows the graph's shape: a long chain gets a wide, low box and a tall fan-out a narrow,
 * high one, instead of a fixed 200 × 150 box where such a graph is a thin strip in an empty panel that hides the
 * nodes underneath. Pure.
 */

/** The largest box (px) and the smallest side, so a very long graph still shows a usable strip. */
export const MINIMAP_BOX = { width: 200, height: 150, minSide: 48 } as const;

/** The minimap's size for a laid-out graph of `width` × `height`. */
export function minimapSize(width: number, height: number): { width: number; height: number } {
  const ratio = Math.max(1, width) / Math.max(1, height);
  if (ratio >= MINIMAP_BOX.width / MINIMAP_BOX.height) return { width: MINIMAP_BOX.width, height: Math.max(MINIMAP_BOX.minSide, Math.round(MINIMAP_BOX.width / ratio)) };
  return { width: Math.max(MINIMAP_BOX.minSide, Math.round(MINIMAP_BOX.height * ratio)), height: MINIMAP_BOX.height };
}
