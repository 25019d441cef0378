/**
 * A quick layered layout computed on the spot, in linear time: each node goes one layer after its deepest parent
 * (longest path), in the given order within its layer, each layer centred on the widest one. It is the first
 * paint while ELK works in its worker, and the answer when a worker is not available.
 */
import type { LayoutGraphInput, LayoutOptions, LayoutResult } from "./layout-types";

/** Lays `graph` out in layers along `options.direction` (edges from unknown nodes and cycles are ignored). */
export function quickLayout(graph: LayoutGraphInput, options: LayoutOptions = {}): LayoutResult {
  const direction = options.direction ?? "RIGHT";
  const horizontal = direction === "RIGHT" || direction === "LEFT";
  const nodeSpacing = options.nodeSpacing ?? 24;
  const layerSpacing = options.layerSpacing ?? 64;
  const index = new Map<string, number>();
  graph.nodes.forEach((node, position) => {
    if (!index.has(node.id)) index.set(node.id, position);
  });
  const parents: number[][] = graph.nodes.map(() => []);
  for (const edge of graph.edges) {
    const source = index.get(edge.source);
    const target = index.get(edge.target);
    if (source === undefined || target === undefined || source === target) continue;
    (parents[target] as number[]).push(source);
  }
  const layerOf = longestPathLayers(graph.nodes.length, parents);
  const layers: number[][] = [];
  graph.nodes.forEach((node, position) => {
    if (index.get(node.id) !== position) return;
    const layer = layerOf[position] ?? 0;
    (layers[layer] ??= []).push(position);
  });
  // Along the flow: each layer as deep as its deepest node. Across it: nodes stacked, layers centred.
  const depthOf = (position: number): number => (horizontal ? graph.nodes[position]?.width : graph.nodes[position]?.height) ?? 0;
  const breadthOf = (position: number): number => (horizontal ? graph.nodes[position]?.height : graph.nodes[position]?.width) ?? 0;
  const spans = layers.map((members) => members.reduce((sum, position) => sum + breadthOf(position), 0) + nodeSpacing * Math.max(0, members.length - 1));
  const breadth = Math.max(0, ...spans);
  const positions: LayoutResult["positions"] = {};
  let along = 0;
  layers.forEach((members, layer) => {
    const depth = Math.max(0, ...members.map(depthOf));
    let across = (breadth - (spans[layer] ?? 0)) / 2;
    for (const position of members) {
      const node = graph.nodes[position];
      if (node === undefined) continue;
      const offset = (depth - depthOf(position)) / 2;
      positions[node.id] = horizontal ? { x: along + offset, y: across } : { x: across, y: along + offset };
      across += breadthOf(position) + nodeSpacing;
    }
    along += depth + layerSpacing;
  });
  const length = Math.max(0, along - layerSpacing);
  if (direction === "LEFT" || direction === "UP") {
    for (const node of graph.nodes) {
      const position = positions[node.id];
      if (position === undefined) continue;
      if (direction === "LEFT") position.x = length - position.x - node.width;
      else position.y = length - position.y - node.height;
    }
  }
  return { positions, width: horizontal ? length : breadth, height: horizontal ? breadth : length };
}

/** Layer of every node: 0 for roots, else one more than its deepest parent (nodes on a cycle count from 0). */
function longestPathLayers(count: number, parents: readonly (readonly number[])[]): number[] {
  const layer = new Array<number>(count).fill(-1);
  const state = new Uint8Array(count);
  for (let start = 0; start < count; start += 1) {
    if (state[start] === 2) continue;
    // Iterative depth-first search over parents, so long chains cannot overflow the stack.
    const stack: Array<{ node: number; next: number }> = [{ node: start, next: 0 }];
    state[start] = 1;
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as { node: number; next: number };
      const own = parents[frame.node] ?? [];
      if (frame.next < own.length) {
        const parent = own[frame.next] as number;
        frame.next += 1;
        if (state[parent] === 0) {
          state[parent] = 1;
          stack.push({ node: parent, next: 0 });
        }
        continue;
      }
      let deepest = -1;
      for (const parent of own) if (state[parent] === 2) deepest = Math.max(deepest, layer[parent] ?? 0);
      layer[frame.node] = deepest + 1;
      state[frame.node] = 2;
      stack.pop();
    }
  }
  return layer;
}
