import { describe, expect, it } from "vitest";
import { FIT_MIN_ZOOM, FOCUS_MAX_ZOOM, neighbourhoodViewport, nodeAtLeft, opensWhole, overlayInsets, type Box, type Insets, type ViewportBox } from "./opening-view";

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

  // The failing-branch run (e2e failingBranchSpec) at 1280 px: Question, Split, Reader (failed) over Writer, Join (the
  // selection: the run's output), in the 498 × 390 px graph pane with the zoom controls' band at the bottom.
  const laptopPane = { width: 498, height: 390 };
  const laptopInsets: Insets = { top: 31, right: 31, bottom: 101, left: 31 };
  const question = node(0, 11);
  const split = node(288, 0);
  const reader = node(576, 0);
  const join = node(864, 11);

  it("frames a failure with its parents and the selected node wholly in view, before the grandparents, at a readable zoom", () => {
    const view = neighbourhoodViewport(reader, [split], laptopPane, laptopInsets, [question], join);
    expect(view.zoom).toBeGreaterThanOrEqual(FIT_MIN_ZOOM);
    for (const box of [reader, split, join]) expect(insideOf(view, box, laptopPane, laptopInsets)).toBe(true);
    // Without a selection the grandparent (the path's root) is framed instead, as before.
    const plain = neighbourhoodViewport(reader, [split], laptopPane, laptopInsets, [question]);
    for (const box of [question, split, reader]) expect(insideOf(plain, box, laptopPane, laptopInsets)).toBe(true);
    expect(insideOf(plain, join, laptopPane, laptopInsets)).toBe(false);
  });

  it("centres a group that fits exactly (1280 × 720: a 498 × 310 px pane, zoom 444 / 808), rounding aside", () => {
    const pane = { width: 498, height: 310 };
    const insets: Insets = { top: 27, right: 27, bottom: 101, left: 27 };
    const view = neighbourhoodViewport(node(588, 12), [node(300, 12)], pane, insets, [node(12, 22)], node(876, 22));
    expect(view.zoom).toBeCloseTo(444 / 808, 9);
    for (const box of [node(300, 12), node(588, 12), node(876, 22)]) expect(insideOf(view, box, pane, insets)).toBe(true);
  });

  it("leaves out a selected node that does not fit with the focus and its parents at FIT_MIN_ZOOM", () => {
    const far = node(5000, 11);
    const view = neighbourhoodViewport(reader, [split], laptopPane, laptopInsets, [question], far);
    expect(view.zoom).toBeGreaterThanOrEqual(FIT_MIN_ZOOM);
    for (const box of [question, split, reader]) expect(insideOf(view, box, laptopPane, laptopInsets)).toBe(true);
  });
});

/** Whether `box` lies inside the pane less `insets` at `view`. */
function insideOf(view: ViewportBox, box: Box, pane: { width: number; height: number }, insets: Insets): boolean {
  const left = box.x * view.zoom + view.x;
  const top = box.y * view.zoom + view.y;
  return left >= insets.left - 0.01 && top >= insets.top - 0.01 && left + box.width * view.zoom <= pane.width - insets.right + 0.01 && top + box.height * view.zoom <= pane.height - insets.bottom + 0.01;
}

describe("the overlays' band", () => {
  // The zoom controls (three stacked buttons, 26 × 78 px, 15 px from the pane's bottom-right corner).
  const controlsIn = (pane: { left: number; top: number; right: number; bottom: number }) => ({ left: pane.right - 41, top: pane.bottom - 93, right: pane.right - 15, bottom: pane.bottom - 15 });

  it("is the band below the controls in a pane tall enough (1280 px: the 498 × 390 px pane)", () => {
    const pane = { left: 0, top: 179, right: 498, bottom: 569 };
    expect(overlayInsets(pane, [controlsIn(pane)], 31)).toEqual({ top: 31, right: 31, bottom: 101, left: 31 });
    expect(overlayInsets(pane, [], 31)).toEqual({ top: 31, right: 31, bottom: 31, left: 31 });
  });

  it("is the band beside the controls in a pane too short for the band below (390 px on a phone, waiting at an approval: 142 px tall)", () => {
    const pane = { left: 0, top: 495, right: 390, bottom: 637.5 };
    const controls = controlsIn(pane);
    const insets = overlayInsets(pane, [controls], 17);
    expect(insets).toEqual({ top: 17, right: 49, bottom: 17, left: 17 });
    // An overlay on the left takes a band on the left.
    expect(overlayInsets(pane, [{ left: 15, top: controls.top, right: 41, bottom: controls.bottom }], 17)).toEqual({ top: 17, right: 17, bottom: 17, left: 49 });
    // The waiting step (a 200 × 44 px pending node) followed at the pane's left edge clears the controls.
    const size = { width: 390, height: 142.5 };
    const waiting: Box = { x: 576, y: 8, width: 200, height: 44 };
    const view = nodeAtLeft(waiting, 1, size, insets, 24, true);
    expect(insideOf(view, waiting, size, insets)).toBe(true);
    const left = waiting.x * view.zoom + view.x;
    expect(left + waiting.width).toBeLessThan(controls.left - pane.left);
  });

  it("centres a followed node across in the padded band, not in the whole pane", () => {
    const size = { width: 498, height: 251.5 };
    const insets: Insets = { top: 23, right: 23, bottom: 101, left: 23 };
    const followed = node(576, 40);
    const view = nodeAtLeft(followed, 1, size, insets, 24, true);
    expect(insideOf(view, followed, size, insets)).toBe(true);
    expect(followed.y + view.y + followed.height / 2).toBeCloseTo(23 + (251.5 - 23 - 101) / 2, 5);
    // A node wider than the padded pane ends at its padded right edge.
    const wide: Box = { x: 0, y: 0, width: 900, height: 60 };
    const aligned = nodeAtLeft(wide, 1, size, insets, 24, true);
    expect(wide.width + aligned.x).toBeCloseTo(498 - 23, 5);
  });
});
