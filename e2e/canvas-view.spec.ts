/**
 * The canvas view: dark mode follows the OS and the header's toggle (system → light → dark → system, kept across a
 * reload), the canvas's own colours switching with it; the minimap draws every node; a dragged node snaps to the
 * 16 px grid; Shift+1 and the Fit View control bring every node back into the pane after a pan, fitted alike; a node's edge has 3:1
 * contrast against the canvas (light and dark) and stays about a pixel wide on screen zoomed out.
 */
import { expect, test, type Page } from "@playwright/test";
import { contrastRatio } from "../components/ui/contrast-ratio";
import { canvasNode as node, createWorkflow, exportCanvas, insidePane, linearSpec, openEditor, seedExamples, viewSettled, zoomOf } from "./canvas-helpers";

test.beforeAll(async ({ browser }) => seedExamples(browser));
test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
});

const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains("dark"));
const canvasIsDark = (page: Page) => page.locator(".react-flow").evaluate((element) => element.classList.contains("dark"));

test("dark mode follows the OS, the toggle overrides it (kept after a reload), and the canvas follows the page", async ({ page }) => {
  const { spec, layout } = linearSpec("theme");
  const workflowId = await createWorkflow(page.request, "E2E theme", spec, layout);
  await page.emulateMedia({ colorScheme: "dark" });
  await openEditor(page, workflowId);
  expect(await isDark(page)).toBe(true);
  // The canvas takes its colour mode at hydration (the server render cannot know the OS theme); a slow machine can
  // show the server-rendered editor before that.
  await expect.poll(() => canvasIsDark(page)).toBe(true);
  await page.emulateMedia({ colorScheme: "light" });
  await expect.poll(() => isDark(page)).toBe(false);
  await expect.poll(() => canvasIsDark(page)).toBe(false);

  const toggle = page.getByTestId("theme-toggle");
  await page.emulateMedia({ colorScheme: "dark" });
  await expect.poll(() => isDark(page)).toBe(true);
  await toggle.click(); // system → light, whatever the OS says
  await expect.poll(() => isDark(page)).toBe(false);
  await expect.poll(() => canvasIsDark(page)).toBe(false);
  await page.reload();
  await expect(page.locator(".react-flow__pane")).toBeVisible();
  expect(await isDark(page)).toBe(false);
  await page.getByTestId("theme-toggle").click(); // light → dark
  await expect.poll(() => isDark(page)).toBe(true);
  await expect.poll(() => canvasIsDark(page)).toBe(true);
  await page.emulateMedia({ colorScheme: "light" });
  expect(await isDark(page)).toBe(true);
  await page.getByTestId("theme-toggle").click(); // dark → system (light now)
  await expect.poll(() => isDark(page)).toBe(false);
});

test("the minimap draws every node; a drag snaps to the grid; Shift+1 and Fit View bring every node back after a pan", async ({ page }) => {
  const { spec, layout } = linearSpec("view");
  const workflowId = await createWorkflow(page.request, "E2E view", spec, layout);
  await openEditor(page, workflowId);
  await expect(page.locator(".react-flow__minimap")).toBeVisible();
  await expect(page.locator(".react-flow__minimap .react-flow__minimap-node")).toHaveCount(3);

  // Dragged by an odd distance, the node lands on the 16 px grid.
  const box = await node(page, "agent").boundingBox();
  if (box === null) throw new Error("agent not on screen");
  await page.mouse.move(box.x + 60, box.y + 14);
  await page.mouse.down();
  await page.mouse.move(box.x + 60 + 53, box.y + 14 + 37, { steps: 8 });
  await page.mouse.up();
  const moved = (await exportCanvas(page)).layout.nodes.agent;
  expect(moved).not.toEqual(layout.nodes.agent);
  expect(moved !== undefined && moved.x % 16 === 0 && moved.y % 16 === 0, JSON.stringify(moved)).toBe(true);

  // Pan everything out of view, then fit: with the keys, and again with the control.
  const pane = page.locator(".react-flow__pane");
  const paneBox = await pane.boundingBox();
  if (paneBox === null) throw new Error("no pane");
  const fitted: number[] = [];
  for (const fit of [() => page.keyboard.press("Shift+1"), () => page.getByRole("button", { name: "Fit View" }).click()]) {
    // Along the top edge, clear of the controls and the minimap at the bottom.
    await page.mouse.move(paneBox.x + paneBox.width - 30, paneBox.y + 30);
    await page.mouse.down();
    await page.mouse.move(paneBox.x + 30, paneBox.y + 30, { steps: 10 });
    await page.mouse.up();
    await expect(node(page, "input")).not.toBeInViewport();
    await fit();
    await expect.poll(async () => (await viewSettled(page)) && (await insidePane(page, '[data-testid="canvas-node"]'))).toBe(true);
    // In the pane, not only in the page (a node behind a side panel is in the page). toBeInViewport's ratio is
    // Chromium's IntersectionObserver ratio, a single-precision float: a node tens of pixels inside the pane at a
    // fractional zoom reads 0.99999988 (1 - 2^-23), hence 0.999 rather than 1 there.
    for (const id of ["input", "agent", "output"]) await expect(node(page, id)).toBeInViewport({ ratio: 0.999 });
    fitted.push(await zoomOf(page));
  }
  // The control fits as Shift+1 does (it used React Flow's default padding and zoom limit: 0.89 here against 0.82).
  expect(fitted[1]).toBeCloseTo(fitted[0] as number, 4);
});

/** A node's edge as drawn: the contrast of its colours (border, outline) with the canvas, and its width on screen. */
async function drawnEdge(page: Page, id: string): Promise<{ contrast: number; outlineContrast: number; screenWidth: number }> {
  const drawn = await node(page, id).evaluate((element) => {
    const style = window.getComputedStyle(element);
    const canvas = window.getComputedStyle(document.querySelector(".react-flow__background") as Element).backgroundColor;
    const zoom = element.getBoundingClientRect().width / (element as HTMLElement).offsetWidth;
    const outline = style.outlineStyle === "none" ? 0 : Number.parseFloat(style.outlineWidth);
    return { border: style.borderTopColor, outline: style.outlineColor, canvas, screenWidth: (Number.parseFloat(style.borderTopWidth) + outline) * zoom };
  });
  return { contrast: contrastRatio(drawn.border, drawn.canvas), outlineContrast: contrastRatio(drawn.outline, drawn.canvas), screenWidth: drawn.screenWidth };
}

/** The first wire as drawn: the contrast of its stroke with the canvas, and its width on screen. */
async function drawnWire(page: Page): Promise<{ contrast: number; screenWidth: number }> {
  const drawn = await page.locator(".react-flow__edge-path").first().evaluate((element) => {
    const style = window.getComputedStyle(element);
    const canvas = window.getComputedStyle(document.querySelector(".react-flow__background") as Element).backgroundColor;
    const transform = window.getComputedStyle(document.querySelector(".react-flow__viewport") as Element).transform;
    const zoom = new DOMMatrixReadOnly(transform).a;
    return { stroke: style.stroke, canvas, screenWidth: Number.parseFloat(style.strokeWidth) * zoom };
  });
  return { contrast: contrastRatio(drawn.stroke, drawn.canvas), screenWidth: drawn.screenWidth };
}

test("a node's edge and a wire have 3:1 contrast against the canvas in light and dark, and are about a pixel wide or more on screen in the far look", async ({ page }) => {
  const { spec, layout } = linearSpec("edges");
  const workflowId = await createWorkflow(page.request, "E2E node edges", spec, layout);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await openEditor(page, workflowId);
    await expect.poll(() => canvasIsDark(page)).toBe(scheme === "dark");
    await expect(node(page, "agent")).not.toHaveAttribute("data-far", "true");
    expect((await drawnEdge(page, "agent")).contrast, scheme).toBeGreaterThanOrEqual(3);
    // Zoomed out to the far look, where a 1 px border alone is a fraction of a pixel on screen.
    for (let step = 0; step < 10 && (await node(page, "agent").getAttribute("data-far")) !== "true"; step++) {
      await page.getByRole("button", { name: "Zoom Out" }).click();
    }
    await page.getByRole("button", { name: "Zoom Out" }).click();
    await expect(node(page, "agent")).toHaveAttribute("data-far", "true");
    const far = await drawnEdge(page, "agent");
    expect(far.contrast, scheme).toBeGreaterThanOrEqual(3);
    expect(far.outlineContrast, scheme).toBeGreaterThanOrEqual(3);
    expect(far.screenWidth, scheme).toBeGreaterThanOrEqual(0.8);
    expect(far.screenWidth, scheme).toBeLessThanOrEqual(2);
    // The wires too: 3:1 against the canvas, and at least a pixel wide on screen (they were 1.5:1 and half a pixel).
    const wire = await drawnWire(page);
    expect(wire.contrast, scheme).toBeGreaterThanOrEqual(3);
    expect(wire.screenWidth, scheme).toBeGreaterThanOrEqual(0.99);
  }
});
