import { describe, expect, it } from "vitest";
import { MINIMAP_BOX, minimapSize } from "./minimap-size";

describe("minimapSize", () => {
  it("keeps the graph's proportions inside the largest box", () => {
    expect(minimapSize(400, 300)).toEqual({ width: 200, height: 150 });
    expect(minimapSize(800, 300)).toEqual({ width: 200, height: 75 });
    expect(minimapSize(300, 600)).toEqual({ width: 75, height: 150 });
  });

  it("never gets thinner than the smallest side, for a chain of 400 or a fan-out of 5,000", () => {
    expect(minimapSize(400 * 288, 60)).toEqual({ width: 200, height: MINIMAP_BOX.minSide });
    expect(minimapSize(232, 5000 * 80)).toEqual({ width: MINIMAP_BOX.minSide, height: 150 });
    expect(minimapSize(0, 0)).toEqual({ width: 150, height: 150 });
  });
});
