import { describe, expect, it } from "vitest";
import { elkLayoutOptions, fromElkGraph, toElkGraph } from "./elk-graph";
import { LayoutCache, layoutKey } from "./layout-cache";
import { inlineEngine } from "./layout-engine";
import type { LayoutGraphInput, LayoutResult } from "./layout-types";
import { provisionalLayout } from "./provisional-layout";
import { quickLayout } from "./quick-layout";

const box = (id: string, width = 100, height = 40) => ({ id, width, height });
const edge = (source: string, target: string) => ({ id: `${source}->${target}`, source, target });

// root -> a, root -> b, a -> merge, b -> merge
const diamond: LayoutGraphInput = {
  nodes: [box("root"), box("a"), box("b"), box("merge")],
  edges: [edge("root", "a"), edge("root", "b"), edge("a", "merge"), edge("b", "merge")],
};

function overlaps(result: LayoutResult, graph: LayoutGraphInput): boolean {
  const nodes = graph.nodes.map((node) => ({ ...node, ...(result.positions[node.id] as { x: number; y: number }) }));
  return nodes.some((left, i) => nodes.some((right, j) => i < j && left.x < right.x + right.width && right.x < left.x + left.width && left.y < right.y + right.height && right.y < left.y + left.height));
}

describe("ELK graph conversion", () => {
  it("builds a layered left-to-right graph, dropping edges to unknown nodes, self-loops and repeats", () => {
    const elk = toElkGraph({ nodes: [box("x"), box("y"), box("x")], edges: [edge("x", "y"), edge("x", "y"), edge("y", "ghost"), edge("y", "y")] });
    expect(elk.children?.map((child) => child.id)).toEqual(["x", "y"]);
    expect(elk.edges).toEqual([{ id: "x->y", sources: ["x"], targets: ["y"] }]);
    expect(elk.layoutOptions).toMatchObject({ "elk.algorithm": "layered", "elk.direction": "RIGHT", "elk.layered.considerModelOrder.strategy": "NODES_AND_EDGES" });
    expect(elkLayoutOptions({ direction: "DOWN", keepOrder: false, nodeSpacing: 10 })).toMatchObject({
      "elk.direction": "DOWN",
      "elk.spacing.nodeNode": "10",
      "elk.layered.considerModelOrder.strategy": "NONE",
    });
    expect(elkLayoutOptions({ fast: true })).toMatchObject({
      "elk.layered.thoroughness": "1",
      "elk.layered.layering.strategy": "LONGEST_PATH",
      "elk.layered.nodePlacement.strategy": "LINEAR_SEGMENTS",
      "elk.layered.considerModelOrder.strategy": "NONE",
      "elk.edgeRouting": "POLYLINE",
    });
    expect(elkLayoutOptions()).toMatchObject({ "elk.layered.thoroughness": "4", "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF" });
  });

  it("reads positions back", () => {
    expect(fromElkGraph({ id: "root", width: 300, height: 90, children: [{ id: "x", x: 12, y: 4 }, { id: "y" }] })).toEqual({
      positions: { x: { x: 12, y: 4 }, y: { x: 0, y: 0 } },
      width: 300,
      height: 90,
    });
  });
});

describe("ELK layout (inline engine, real ELK)", () => {
  it("puts every child in a later layer than its parents and nothing overlaps", async () => {
    const { result, thread } = await inlineEngine().layout(diamond);
    expect(thread).toBe("main");
    const x = (id: string) => result.positions[id]?.x ?? Number.NaN;
    expect(x("a")).toBeGreaterThan(x("root"));
    expect(x("b")).toBeGreaterThan(x("root"));
    expect(x("merge")).toBeGreaterThan(Math.max(x("a"), x("b")));
    expect(overlaps(result, diamond)).toBe(false);
    expect(result.width).toBeGreaterThan(300);
  });
});

describe("quick layout", () => {
  it("layers by longest path, keeps order in a layer and centres layers", () => {
    const result = quickLayout(diamond, { nodeSpacing: 20, layerSpacing: 50 });
    expect(result.positions).toEqual({
      root: { x: 0, y: 30 },
      a: { x: 150, y: 0 },
      b: { x: 150, y: 60 },
      merge: { x: 300, y: 30 },
    });
    expect(result).toMatchObject({ width: 400, height: 100 });
    expect(overlaps(result, diamond)).toBe(false);
  });

  it("flows down or left when asked, and survives a cycle and a 20,000-long chain", () => {
    const down = quickLayout(diamond, { direction: "DOWN" });
    expect(down.positions.merge?.y).toBeGreaterThan(down.positions.a?.y ?? Infinity);
    const left = quickLayout(diamond, { direction: "LEFT" });
    expect(left.positions.root?.x).toBeGreaterThan(left.positions.merge?.x ?? Infinity);
    const cyclic = quickLayout({ nodes: [box("p"), box("q")], edges: [edge("p", "q"), edge("q", "p")] });
    expect(Object.keys(cyclic.positions).sort()).toEqual(["p", "q"]);
    const nodes = Array.from({ length: 20_000 }, (_, index) => box(`n${index}`));
    const edges = nodes.slice(1).map((node, index) => edge(`n${index}`, node.id));
    const chain = quickLayout({ nodes: [...nodes].reverse(), edges });
    expect(chain.positions.n19999?.x).toBeGreaterThan(chain.positions.n19998?.x ?? Infinity);
  });
});

describe("provisional layout", () => {
  it("keeps laid-out nodes and puts new ones after their parent, stacked", () => {
    const previous: LayoutResult = { positions: { root: { x: 0, y: 0 } }, width: 100, height: 40 };
    const grown: LayoutGraphInput = { nodes: [box("root"), box("a"), box("b"), box("orphan")], edges: [edge("root", "a"), edge("root", "b")] };
    const result = provisionalLayout(previous, grown, { nodeSpacing: 10, layerSpacing: 50 });
    expect(result.positions).toEqual({ root: { x: 0, y: 0 }, a: { x: 150, y: 0 }, b: { x: 150, y: 50 }, orphan: { x: 0, y: 100 } });
    expect(overlaps(result, grown)).toBe(false);
    expect(provisionalLayout(null, diamond)).toEqual(quickLayout(diamond));
  });
});

describe("layout cache", () => {
  it("keys graphs by structure, so a re-projected graph with the same nodes and edges finds its layout", () => {
    const copy: LayoutGraphInput = { nodes: diamond.nodes.map((node) => ({ ...node })), edges: diamond.edges.map((entry) => ({ ...entry })) };
    expect(layoutKey(copy)).toBe(layoutKey(diamond));
    expect(layoutKey({ ...diamond, nodes: [...diamond.nodes.slice(0, 3), box("merge", 101)] })).not.toBe(layoutKey(diamond));
    expect(layoutKey({ ...diamond, edges: diamond.edges.slice(1) })).not.toBe(layoutKey(diamond));
  });

  it("keeps the most recently used layouts", () => {
    const cache = new LayoutCache(2);
    const result = (width: number): LayoutResult => ({ positions: {}, width, height: 1 });
    cache.set("a", result(1));
    cache.set("b", result(2));
    expect(cache.get("a")?.width).toBe(1);
    cache.set("c", result(3));
    expect(cache.get("b")).toBeUndefined();
    expect([cache.get("a")?.width, cache.get("c")?.width]).toEqual([1, 3]);
  });
});
