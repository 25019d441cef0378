import { describe, expect, it } from "vitest";
import { FIT_MIN_ZOOM, FOCUS_MAX_ZOOM, neighbourhoodViewport, opensWhole, type Box, type Insets, type ViewportBox } from "./opening-view";

const INSETS: Insets = { top: 20, right: 20, bottom: 60, left: 20 };
const node = (x: number, y: number): Box => ({ x, y, width: 232, height: 60 });

/** Whether `box` lies inside the padded pane at `view`. */
function inside(view: ViewportBox, box: Box, pane: { width: number; height: number }): boolean {
  const left = box.x * view.zoom + view.x;
  const top = box.y * view.zoom + view.y;
  return left >= INSETS.left - 0.01 && top >= INSETS.top - 0.01 && left + box.width * view.zoom <= pane.width - INSETS.right + 0.01 && top + box.height * view.zoom <= pane.height - INSETS.bottom + 0.01;
}

describe("opening view", () => {
  it("frames a graph whole when it fits at FIT_MIN_ZOOM or more, not when it needs less", () => {
    // 11 sessions over six layers (a fork/merge run) in a laptop's graph pane: about 0.55.
    expect(opensWhole({ width: 1660, height: 300 }, { width: 1000, height: 500 }, INSETS)).toBe(true);
    expect(opensWhole({ width: 1660, height: 300 }, { width: 370, height: 400 }, INSETS)).toBe(false);
    expect(opensWhole({ width: 30_000, height: 32_000 }, { width: 1000, height: 500 }, INSETS)).toBe(false);
  });

  it("shows a focus with its parents at a zoom between FIT_MIN_ZOOM and FOCUS_MAX_ZOOM", () => {
    const pane = { width: 370, height: 420 };
    const focus = node(1440, 100);
    const parents = [node(1152, 40), node(1152, 160)];
    const view = neighbourhoodViewport(focus, parents, pane, INSETS);
    expect(view.zoom).toBeGreaterThanOrEqual(FIT_MIN_ZOOM);
    expect(view.zoom).toBeLessThanOrEqual(FOCUS_MAX_ZOOM);
    for (const box of [focus, ...parents]) expect(inside(view, box, pane)).toBe(true);
  });

  it("adds the grandparents when all fit at FIT_MIN_ZOOM (a merge's output with the branches it joined), else not", () => {
    const focus = node(1152, 70);
    const parents = [node(864, 70)];
    const grandparents = [node(576, 0), node(576, 140)];
    const laptop = { width: 500, height: 480 };
    const wide = neighbourhoodViewport(focus, parents, laptop, INSETS, grandparents);
    for (const box of [focus, ...parents, ...grandparents]) expect(inside(wide, box, laptop)).toBe(true);
    expect(wide.zoom).toBeGreaterThanOrEqual(FIT_MIN_ZOOM);
    const phone = { width: 370, height: 420 };
    const narrow = neighbourhoodViewport(focus, parents, phone, INSETS, grandparents);
    for (const box of [focus, ...parents]) expect(inside(narrow, box, phone)).toBe(true);
    expect(inside(narrow, grandparents[0] as Box, phone)).toBe(false);
  });

  it("opens a lone focus at FOCUS_MAX_ZOOM, centred", () => {
    const pane = { width: 800, height: 500 };
    const view = neighbourhoodViewport(node(5000, 9000), [], pane, INSETS);
    expect(view.zoom).toBe(FOCUS_MAX_ZOOM);
    expect(inside(view, node(5000, 9000), pane)).toBe(true);
    expect(5000 * view.zoom + view.x + 116).toBeCloseTo(INSETS.left + (800 - INSETS.left - INSETS.right) / 2, 5);
  });

  it("keeps the focus in view, on the right with its parents leading in, when they do not fit together", () => {
    const pane = { width: 370, height: 420 };
    const focus = node(3000, 0);
    const parents = [node(0, 0)];
    const view = neighbourhoodViewport(focus, parents, pane, INSETS);
    expect(view.zoom).toBe(FIT_MIN_ZOOM);
    expect(inside(view, focus, pane)).toBe(true);
    // The focus ends at the padded pane's right edge.
    expect((focus.x + focus.width) * view.zoom + view.x).toBeCloseTo(pane.width - INSETS.right, 5);
  });
});
