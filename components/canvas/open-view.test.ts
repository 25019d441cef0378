import { describe, expect, it } from "vitest";
import { OPEN_MIN_ZOOM, openFit, WIDE_PANE } from "./open-view";

/** A chain of `count` nodes laid out left to right, 320 px apart (Auto-layout's spacing), Input first. */
function chain(count: number) {
  const nodes = Array.from({ length: count }, (_, index) => ({ id: index === 0 ? "input" : `node-${index}` }));
  const positions = Object.fromEntries(nodes.map((node, index) => [node.id, { x: 16 + index * 320, y: 16 + (index % 2) * 160 }]));
  return { nodes, positions };
}

describe("openFit", () => {
  it("opens a small workflow whole in a wide pane, at 30 % or more", () => {
    expect(openFit(chain(7), 1000)).toEqual({ padding: 0.2, minZoom: OPEN_MIN_ZOOM, maxZoom: 1 });
    expect(openFit(chain(7), WIDE_PANE)).not.toHaveProperty("nodes");
  });

  it("opens a big workflow at 50 % or more, whatever the pane", () => {
    expect(openFit(chain(41), 390)).toEqual({ padding: 0.2, minZoom: 0.5, maxZoom: 1 });
  });

  it("in a phone's pane fits the left end that reads at 30 %: the Input node and what follows it within the width", () => {
    // 390 px at 30 % with React Flow's padding of 0.2 (bounds × 1.2): 1,083 px of the canvas; nodes are 232 px wide,
    // 320 px apart, so three of them end within it.
    const fit = openFit(chain(7), 390);
    expect(fit.minZoom).toBe(OPEN_MIN_ZOOM);
    expect(fit.nodes).toEqual([{ id: "input" }, { id: "node-1" }, { id: "node-2" }]);
  });

  it("in a phone's pane opens whole a workflow that fits its width anyway, and never on no node at all", () => {
    expect(openFit(chain(3), 390)).not.toHaveProperty("nodes");
    expect(openFit(chain(3), 100).nodes).toEqual([{ id: "input" }]);
  });

  it("takes a pane not measured yet (0 px) for a wide one", () => {
    expect(openFit(chain(7), 0)).not.toHaveProperty("nodes");
  });
});
