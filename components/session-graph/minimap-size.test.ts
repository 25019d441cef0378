import { describe, expect, it } from "vitest";
import { MINIMAP_BOX, minimapScale, minimapSize } from "./minimap-size";

describe("minimapSize", () => {
  it("keeps an ordinary graph's proportions inside the ordinary box", () => {
    expect(minimapSize({ width: 400, height: 300, along: 4 })).toEqual({ width: 200, height: 150 });
    expect(minimapSize({ width: 800, height: 300, along: 3 })).toEqual({ width: 200, height: 75 });
    expect(minimapSize({ width: 300, height: 600, along: 6 })).toEqual({ width: 75, height: 150 });
  });

  it("grows a tall fan-out into the pane's height until each of its rows gets about 3 px, staying easy to hit", () => {
    // 400 threads of 60 px + 20 px spacing next to two layers of 232 px: the shape of the explorer benchmark's run.
    const fanOut = { width: 232 + 56 + 232, height: 400 * 80, along: 400 };
    const roomy = minimapSize(fanOut, { width: 600, height: 700 });
    expect(roomy).toEqual({ width: MINIMAP_BOX.minSide, height: MINIMAP_BOX.maxLong });
    expect(minimapScale(fanOut, roomy) * 60).toBeGreaterThan(0.9);
    // In a short pane it takes what there is, never less than the ordinary box.
    expect(minimapSize(fanOut, { width: 600, height: 320 })).toEqual({ width: MINIMAP_BOX.minSide, height: 320 });
    expect(minimapSize(fanOut, { width: 600, height: 90 })).toEqual({ width: MINIMAP_BOX.minSide, height: 150 });
    // Without a room (the default) it is the ordinary box.
    expect(minimapSize(fanOut)).toEqual({ width: MINIMAP_BOX.minSide, height: 150 });
  });

  it("grows a long chain along the pane's width only as far as its layers need", () => {
    expect(minimapSize({ width: 100 * 288, height: 60, along: 100 }, { width: 900, height: 400 })).toEqual({ width: 300, height: MINIMAP_BOX.minSide });
    expect(minimapSize({ width: 400 * 288, height: 60, along: 400 }, { width: 900, height: 400 })).toEqual({ width: MINIMAP_BOX.maxLong, height: MINIMAP_BOX.minSide });
  });

  it("does not grow a moderately tall graph past the room or its own need", () => {
    expect(minimapSize({ width: 300, height: 1200, along: 15 }, { width: 600, height: 700 })).toEqual({ width: 56, height: 150 });
    expect(minimapSize({ width: 0, height: 0, along: 0 })).toEqual({ width: 150, height: 150 });
  });
});
