import { describe, expect, it } from "vitest";
import type { LayoutGraphInput } from "../graph-layout/layout-types";
import { presentDirection } from "./present-direction";

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
});
