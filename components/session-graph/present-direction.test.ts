import { describe, expect, it } from "vitest";
import type { LayoutGraphInput } from "../graph-layout/layout-types";
import { directionFor, graphExtents, presentDirection } from "./present-direction";

/** input -> fork ×2 -> agent ×2 -> merge -> summary: five layers, two wide (the fork/merge template's shape). */
const forkMerge: LayoutGraphInput = {
  nodes: ["input", "forkA", "forkB", "pros", "cons", "merge", "summary"].map((id) => ({ id, width: 210, height: 56 })),
  edges: [
    ["input", "forkA"],
    ["input", "forkB"],
    ["forkA", "pros"],
    ["forkB", "cons"],
    ["pros", "merge"],
    ["cons", "merge"],
    ["merge", "summary"],
  ].map(([source, target]) => ({ id: `${source}-${target}`, source: source as string, target: target as string })),
};
const options = { nodeSpacing: 20, layerSpacing: 56 };

describe("presentDirection", () => {
  it("flows down in a phone's pane, where the fork/merge graph would be a thin strip", () => {
    expect(presentDirection(forkMerge, options, 390, 360)).toBe("DOWN");
  });

  it("keeps left-to-right in a wide, short pane", () => {
    expect(presentDirection(forkMerge, options, 1200, 300)).toBe("RIGHT");
  });

  it("keeps left-to-right for a single node or an unmeasured pane", () => {
    expect(presentDirection({ nodes: [{ id: "a", width: 210, height: 56 }], edges: [] }, options, 390, 360)).toBe("RIGHT");
    expect(presentDirection(forkMerge, options, 0, 0)).toBe("RIGHT");
  });

  it("keeps a very large graph RIGHT (the estimate would lay it out twice)", () => {
    const wide: LayoutGraphInput = { nodes: Array.from({ length: 401 }, (_, index) => ({ id: `n${index}`, width: 210, height: 56 })), edges: [] };
    expect(presentDirection(wide, options, 390, 430)).toBe("RIGHT");
    expect(presentDirection(forkMerge, options, 498, 500)).toBe("DOWN");
  });

  it("decides a resize from the two sizes estimated once for the shape, as presentDirection does", () => {
    const extents = graphExtents(forkMerge, options);
    expect(extents).not.toBeNull();
    // Five layers along, two across: taller than wide flowing down, wider than tall flowing right.
    expect(extents?.down.height).toBeGreaterThan(extents?.down.width ?? 0);
    expect(extents?.right.width).toBeGreaterThan(extents?.right.height ?? 0);
    for (const [width, height] of [[390, 360], [1200, 300], [498, 500], [800, 800], [0, 0]] as const) {
      expect(directionFor(extents, width, height)).toBe(presentDirection(forkMerge, options, width, height));
    }
    expect(graphExtents({ nodes: [{ id: "a", width: 210, height: 56 }], edges: [] }, options)).toBeNull();
    expect(directionFor(null, 390, 360)).toBe("RIGHT");
  });
});
