/**
 * Layouts already computed, by the structure of their graph: collapsing a chain again, or a live graph whose
 * sessions only grew chunks, reuses ELK's answer instead of asking again. Small and in memory (one tab).
 */
import type { LayoutGraphInput, LayoutResult } from "./layout-types";

/** The structure of a graph as a string: node ids with sizes, then edges (order matters to ELK, so it is kept). */
export function layoutKey(graph: LayoutGraphInput): string {
  const nodes = graph.nodes.map((node) => `${node.id}:${node.width}x${node.height}`).join("|");
  const edges = graph.edges.map((edge) => `${edge.source}>${edge.target}`).join("|");
  return `${nodes}\n${edges}`;
}

/** A least-recently-used map of layouts. */
export class LayoutCache {
  private readonly entries = new Map<string, LayoutResult>();

  constructor(private readonly capacity: number) {}

  get(key: string): LayoutResult | undefined {
    const found = this.entries.get(key);
    if (found === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, found);
    return found;
  }

  set(key: string, result: LayoutResult): void {
    this.entries.delete(key);
    this.entries.set(key, result);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}

/** The tab's layouts. */
export const layoutCache = new LayoutCache(16);
