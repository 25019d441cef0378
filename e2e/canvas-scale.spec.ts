/**
 * The canvas at scale: a 300-node workflow opens fitted with the zoom kept between 50 % and 100 %, validates on
 * the server (the spec travels by POST), and below 45 % zoom nodes draw their far look (name and status only); a
 * small workflow opens whole: on a laptop at 30 % or more with its names readable, on a phone at any zoom.
 */
import { expect, test, type Page } from "@playwright/test";
import { benchWorkflow } from "../bench/canvas-workflow";
import { createWorkflow, openEditor, seedExamples, workflowIdByName } from "./canvas-helpers";

async function zoomOf(page: Page): Promise<number> {
  const transform = await page.locator(".react-flow__viewport").evaluate((element) => (element as HTMLElement).style.transform);
  const match = /scale\(([\d.]+)\)/.exec(transform);
  if (match === null) throw new Error(`no scale in ${transform}`);
  return Number(match[1]);
}

test.beforeAll(async ({ browser }) => seedExamples(browser));

test("a 300-node workflow opens fitted at 50–100 % zoom, is validated by the server over POST, and draws far nodes below 45 %", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { spec, layout } = benchWorkflow();
  const workflowId = await createWorkflow(page.request, "E2E 300 nodes", spec, layout);
  const validations: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/trpc/workflows.validate")) validations.push(request.method());
  });
  await openEditor(page, workflowId);
  await expect(page.getByTestId("canvas-node").first()).toBeVisible();
  const opened = await zoomOf(page);
  expect(opened).toBeGreaterThanOrEqual(0.5);
  expect(opened).toBeLessThanOrEqual(1);
  await expect(page.getByTestId("problems-panel")).toHaveAttribute("data-count", "0");
  await expect.poll(() => validations).toContain("POST");
  expect(validations).not.toContain("GET");
  await expect(page.locator('[data-testid="canvas-node"][data-far="true"]')).toHaveCount(0);
  // A big workflow warms the layout worker up on its own (after the first paint), before any Auto-layout click.
  await expect(page.getByTestId("workflow-editor")).toHaveAttribute("data-layout-warm", "true");
  await expect(page.getByTestId("workflow-editor")).toHaveAttribute("data-layout-count", "0");

  // Zoom out with the wheel over the pane until the far look takes over.
  const pane = await page.locator(".react-flow__pane").boundingBox();
  if (pane === null) throw new Error("no pane");
  await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
  for (let step = 0; step < 12 && (await zoomOf(page)) >= 0.45; step++) await page.mouse.wheel(0, 400);
  expect(await zoomOf(page)).toBeLessThan(0.45);
  const far = page.locator('[data-testid="canvas-node"][data-far="true"]');
  await expect(far.first()).toBeVisible();
  expect(await page.locator('[data-testid="canvas-node"]:not([data-far="true"])').count()).toBe(0);
  await expect(far.first().locator("dl")).toHaveCount(0);
  await expect(page.locator(".rath-port-label")).toHaveCount(0);

  // Back in: the full look (summary rows) returns.
  for (let step = 0; step < 12 && (await zoomOf(page)) < 0.6; step++) await page.mouse.wheel(0, -400);
  await expect(page.locator('[data-testid="canvas-node"][data-far="true"]')).toHaveCount(0);
  await expect(page.locator('[data-testid="canvas-node"] dl').first()).toBeVisible();
});

test("on a 390 px phone a small workflow opens whole: every node inside the canvas, zoomed out as far as that takes", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const workflowId = await workflowIdByName(page, "Fork/merge research");
  await openEditor(page, workflowId);
  const nodes = page.getByTestId("canvas-node");
  await expect(nodes.first()).toBeVisible();
  const pane = await page.locator(".react-flow__pane").boundingBox();
  if (pane === null) throw new Error("no pane");
  await expect
    .poll(async () => {
      const boxes = await nodes.evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect()).map((box) => ({ left: box.left, right: box.right, top: box.top, bottom: box.bottom })));
      return boxes.every((box) => box.left >= pane.x - 1 && box.right <= pane.x + pane.width + 1 && box.top >= pane.y - 1 && box.bottom <= pane.y + pane.height + 1) && boxes.length >= 5;
    })
    .toBe(true);
  expect(await zoomOf(page)).toBeLessThan(0.5);
});

test("at 1280 px a template opens whole, at 30 % zoom or more, its node names readable (at least 9.5 px on screen)", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const workflowId = await workflowIdByName(page, "Fork/merge research");
  await openEditor(page, workflowId);
  const nodes = page.getByTestId("canvas-node");
  await expect(nodes).toHaveCount(7);
  const pane = await page.locator(".react-flow__pane").boundingBox();
  if (pane === null) throw new Error("no pane");
  await expect
    .poll(async () => {
      const zoom = await zoomOf(page);
      const boxes = await nodes.evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect()).map((box) => ({ left: box.left, right: box.right, top: box.top, bottom: box.bottom })));
      const inside = boxes.every((box) => box.left >= pane.x - 1 && box.right <= pane.x + pane.width + 1 && box.top >= pane.y - 1 && box.bottom <= pane.y + pane.height + 1);
      // The far look's names as drawn on screen (the template opens below 45 % here, so every node is in it).
      const names = await nodes.evaluateAll((elements) =>
        elements.map((element) => {
          const name = element.getAttribute("data-far") === "true" ? element.querySelector("span") : null;
          return name === null ? 0 : Number.parseFloat(window.getComputedStyle(name).fontSize);
        }),
      );
      return { inside, zoomAtLeast30: zoom >= 0.3 - 1e-6, smallestName: Math.min(...names.map((size) => Math.round(size * zoom * 10) / 10)) >= 9.5 };
    })
    .toEqual({ inside: true, zoomAtLeast30: true, smallestName: true });
});
