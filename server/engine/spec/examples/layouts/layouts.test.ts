import { describe, expect, it } from "vitest";
import { NODE_SIZE } from "../../../../../components/canvas/auto-layout";
import { EXAMPLE_LAYOUTS, EXAMPLE_SPECS } from "../index";
import { computeExampleLayouts } from "./compute-layouts";

describe("the examples' stored layouts", () => {
  it("are exactly what the editor's Auto-layout computes for each example (run `npm run examples:layouts` after changing one)", async () => {
    const computed = await computeExampleLayouts();
    expect(Object.keys(EXAMPLE_LAYOUTS).sort()).toEqual(Object.keys(EXAMPLE_SPECS).sort());
    expect(EXAMPLE_LAYOUTS).toEqual(computed);
    // Deterministic: a second run gives the same positions.
    expect(await computeExampleLayouts()).toEqual(computed);
  });

  it("place every node of every example once, on the 16 px grid, with no two nodes overlapping", () => {
    for (const [slug, spec] of Object.entries(EXAMPLE_SPECS)) {
      const ids = (spec as { nodes: { id: string }[] }).nodes.map((node) => node.id);
      const layout = EXAMPLE_LAYOUTS[slug]?.nodes ?? {};
      expect(Object.keys(layout).sort(), slug).toEqual([...ids].sort());
      const boxes = Object.values(layout);
      for (const box of boxes) expect([box.x % 16, box.y % 16], slug).toEqual([0, 0]);
      const overlapping = boxes.some((a, i) => boxes.some((b, j) => i < j && Math.abs(a.x - b.x) < NODE_SIZE.width && Math.abs(a.y - b.y) < NODE_SIZE.height));
      expect(overlapping, slug).toBe(false);
    }
  });
});
