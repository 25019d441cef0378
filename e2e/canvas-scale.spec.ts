/**
 * The canvas at scale: a 300-node workflow opens fitted with the zoom kept between 50 % and 100 %, validates on
 * the server (the spec travels by POST), and below 45 % zoom nodes draw their far look (name and status only); a
 * template opens with its names at 11 px or more on screen: whole on a laptop (30 % or more, and the names stay that
 * size zooming in through the middle range), on a phone at 30 % or more on its Input node, whole one click away. At
 * the middle look a name reads whole on up to two lines (a longer one is cut, whole in its title), nodes apart.
 */
import { expect, test, type Page } from "@playwright/test";
import { benchWorkflow } from "../bench/canvas-workflow";
import { createWorkflow, insidePane, openEditor, relabel, seedExamples, workflowIdByName, zoomOf } from "./canvas-helpers";

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

/** The smallest node name as drawn on screen, in px (font size times zoom), over every node of the canvas. */
async function smallestTitleOnScreen(page: Page): Promise<number> {
  const zoom = await zoomOf(page);
  const sizes = await page.locator("[data-node-title]").evaluateAll((elements) => elements.map((element) => Number.parseFloat(window.getComputedStyle(element).fontSize)));
  if (sizes.length === 0) throw new Error("no node names");
  return Math.round(Math.min(...sizes) * zoom * 10) / 10;
}

test("on a 390 px phone a template opens readable (30 % or more, names 11 px or more on screen) on its Input node; Fit View shows it whole", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const workflowId = await workflowIdByName(page, "Fork/merge research");
  await openEditor(page, workflowId);
  await expect(page.getByTestId("canvas-node")).toHaveCount(7);
  await expect
    .poll(async () => ({ zoomAtLeast30: (await zoomOf(page)) >= 0.3 - 1e-6, inputInView: await insidePane(page, '[data-testid="canvas-node"][data-node-id="input"]'), title: (await smallestTitleOnScreen(page)) >= 11 }))
    .toEqual({ zoomAtLeast30: true, inputInView: true, title: true });
  // The whole template is one click away.
  expect(await insidePane(page, '[data-testid="canvas-node"]')).toBe(false);
  await page.locator(".react-flow__controls-fitview").click();
  await expect.poll(() => insidePane(page, '[data-testid="canvas-node"]')).toBe(true);
  expect(await zoomOf(page)).toBeLessThan(0.3);
});

test("at 1280 px a template opens whole at 30 % or more with names 11 px or more on screen, and stay so zooming in through the middle range", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const workflowId = await workflowIdByName(page, "Fork/merge research");
  await openEditor(page, workflowId);
  const nodes = page.getByTestId("canvas-node");
  await expect(nodes).toHaveCount(7);
  await expect
    .poll(async () => ({ inside: await insidePane(page, '[data-testid="canvas-node"]'), zoomAtLeast30: (await zoomOf(page)) >= 0.3 - 1e-6, title: (await smallestTitleOnScreen(page)) >= 11 }))
    .toEqual({ inside: true, zoomAtLeast30: true, title: true });
  expect(await zoomOf(page)).toBeLessThan(0.45);
  await expect(page.locator('[data-testid="canvas-node"][data-far="true"]')).toHaveCount(7);

  // Zoom in with the wheel over the pane, a step at a time: at every stop the names read at 11 px or more.
  const pane = await page.locator(".react-flow__pane").boundingBox();
  if (pane === null) throw new Error("no pane");
  await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
  const middleStops: number[] = [];
  for (let step = 0; step < 30 && (await zoomOf(page)) < 1; step++) {
    const before = await zoomOf(page);
    await page.mouse.wheel(0, -60);
    await expect.poll(() => zoomOf(page)).toBeGreaterThan(before);
    const zoom = await zoomOf(page);
    if (zoom >= 0.45 && zoom < 0.88) {
      middleStops.push(zoom);
      await expect(page.locator('[data-testid="canvas-node"][data-far="true"]')).toHaveCount(0);
    }
    expect(await smallestTitleOnScreen(page), `names at ${Math.round(zoom * 100)} %`).toBeGreaterThanOrEqual(11);
  }
  expect(middleStops.length).toBeGreaterThanOrEqual(2);
});

/** Each node name as drawn: its text, whether all of it shows (nothing clamped or cut), its line count and its title. */
async function drawnNames(page: Page): Promise<{ name: string; whole: boolean; lines: number; title: string | null }[]> {
  return page.locator("[data-node-title]").evaluateAll((elements) =>
    elements.map((element) => ({
      name: element.textContent ?? "",
      whole: element.scrollHeight <= element.clientHeight + 1 && element.scrollWidth <= element.clientWidth + 1,
      lines: Math.round(element.clientHeight / Number.parseFloat(window.getComputedStyle(element).lineHeight)),
      title: element.getAttribute("title"),
    })),
  );
}

/** Pairs of nodes whose boxes on screen overlap. */
async function overlappingNodes(page: Page): Promise<string[]> {
  const boxes = await page.locator('[data-testid="canvas-node"]').evaluateAll((elements) =>
    elements.map((element) => ({ id: element.getAttribute("data-node-id") ?? "", box: element.getBoundingClientRect().toJSON() as { left: number; right: number; top: number; bottom: number } })),
  );
  const pairs: string[] = [];
  for (const [index, a] of boxes.entries()) {
    for (const b of boxes.slice(index + 1)) {
      if (a.box.left < b.box.right && b.box.left < a.box.right && a.box.top < b.box.bottom && b.box.top < a.box.bottom) pairs.push(`${a.id}/${b.id}`);
    }
  }
  return pairs;
}

test("at the middle look a long name wraps onto two lines and reads whole, a longer one is cut with its whole name in its title; no nodes overlap", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const workflowId = await workflowIdByName(page, "Support triage loop");
  await openEditor(page, workflowId);
  await expect(page.locator('[data-testid="canvas-node"][data-far="true"]')).toHaveCount(6);
  // Into the low end of the middle look, where names are drawn largest (about 25 px) and wrap the most.
  const pane = await page.locator(".react-flow__pane").boundingBox();
  if (pane === null) throw new Error("no pane");
  await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
  for (let step = 0; step < 30 && (await zoomOf(page)) < 0.45; step++) {
    const before = await zoomOf(page);
    await page.mouse.wheel(0, -40);
    await expect.poll(() => zoomOf(page)).toBeGreaterThan(before);
  }
  expect(await zoomOf(page)).toBeLessThan(0.55);
  await expect(page.locator('[data-testid="canvas-node"][data-far="true"]')).toHaveCount(0);
  const names = await drawnNames(page);
  expect(names.map(({ name, whole, title }) => ({ name, whole, title }))).toEqual(
    ["Support request", "Triage", "Resolved?", "Specialist", "Wrap-up", "Customer reply"].map((name) => ({ name, whole: true, title: name })),
  );
  expect(Math.max(...names.map((name) => name.lines))).toBe(2);
  expect(await overlappingNodes(page)).toEqual([]);

  // A name too long for two lines ends cut, the whole of it in the title.
  const long = "Escalate to the on-call engineer while the customer is still waiting";
  await relabel(page, "specialist", long);
  const specialist = page.locator('[data-node-id="specialist"] [data-node-title]');
  await expect(specialist).toHaveAttribute("title", long);
  expect((await drawnNames(page)).find((name) => name.name === long)).toMatchObject({ whole: false, lines: 2 });
  expect(await overlappingNodes(page)).toEqual([]);
});
