/**
 * The run page's layout promises (issue 10): nothing overflows its panel at 1280 or 390 px with long unbroken text
 * in the input and the chunks, the tab has a favicon that loads, and a run of 5,000 sessions is drawn virtualised
 * (graph nodes and timeline rows in the DOM stay a small share of the whole), and the header spans the page content.
 */
import { expect, test, type Page } from "@playwright/test";
import { explorerRun } from "../bench/explorer-graph";
import { chainSpec, MODELS, scriptedProviderForSpec, trpcMutation, waitForStatus, type StartedRun } from "./run-view-fixtures";

const PROVIDER = scriptedProviderForSpec("e2e-layout");

/** Elements of the page wider than their box (scrolling sideways), by test id or id. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const wide: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) wide.push(`page ${root.scrollWidth} > ${root.clientWidth}`);
    for (const element of document.querySelectorAll<HTMLElement>('[data-testid="run-page"] section, [data-testid="run-page"] header, [data-testid="chunk-list"]')) {
      const style = getComputedStyle(element);
      if (style.display === "none") continue;
      if (element.scrollWidth > element.clientWidth + 1) wide.push(`${element.id || element.getAttribute("data-testid") || element.tagName} ${element.scrollWidth} > ${element.clientWidth}`);
    }
    return wide;
  });
}

test("long unbroken text in the input and the chunks overflows nothing at 1280 and 390 px", async ({ page }) => {
  const unbroken = `https://example.com/${"a".repeat(300)}${"b".repeat(200_000)}`;
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: chainSpec("Unbroken text", PROVIDER, MODELS.fast, 2), input: unbroken });
  const runId = started.run.id;
  await waitForStatus(page.request, runId, ["succeeded"]);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 860 });
    await page.goto(`/runs/${runId}`);
    await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
    expect(await overflowing(page), `graph at ${width} px`).toEqual([]);
    if (width < 1024) await page.getByTestId("panel-tab-session").click();
    await expect(page.getByTestId("chunk-list").first()).toBeVisible();
    await page.getByTestId("chunk-select").first().click();
    expect(await overflowing(page), `session at ${width} px`).toEqual([]);
    if (width < 1024) await page.getByTestId("panel-tab-inspector").click();
    await expect(page.getByTestId("chunk-inspector")).toBeVisible();
    expect(await overflowing(page), `inspector at ${width} px`).toEqual([]);
  }
});

test("the tab has a favicon, and it loads", async ({ page }) => {
  await page.goto("/runs");
  const href = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(href).not.toBeNull();
  const icon = await page.request.get(href as string);
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/image\//);
});

test("a run of 5,000 sessions is drawn virtualised: few graph nodes and timeline rows in the DOM", async ({ page }) => {
  test.setTimeout(180_000);
  const generated = explorerRun(5000, 5000);
  const imported = await trpcMutation<{ runId: string }>(page.request, "transfer.importBundle", { content: generated.bundle, fileName: "five-thousand.jsonl" });
  await page.goto(`/runs/${imported.runId}`);
  const graph = page.getByTestId("session-graph");
  await expect(graph).toHaveAttribute("data-session-count", "5000", { timeout: 60_000 });
  await expect(graph).toHaveAttribute("data-layout", "quick", { timeout: 60_000 });
  const drawn = Number(await graph.getAttribute("data-node-count"));
  expect(drawn).toBeGreaterThan(100);
  // Only the nodes in view are in the DOM (xyflow's onlyRenderVisibleElements).
  expect(await page.locator(".react-flow__node").count()).toBeLessThan(Math.min(drawn, 400));
  // The imported run's timeline names all 5,000 sessions and renders only the rows in view.
  await expect(page.getByTestId("timeline-imported")).toContainText("5000 sessions");
  const rows = await page.getByTestId("timeline-session").count();
  expect(rows).toBeGreaterThan(0);
  expect(rows).toBeLessThan(100);
});

test("the header is as wide as the page content at 1280 px", async ({ page }) => {
  const unbroken = `https://example.com/${"c".repeat(400)}`;
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: chainSpec("Wide header", PROVIDER, MODELS.fast, 1), input: unbroken });
  await waitForStatus(page.request, started.run.id, ["succeeded"]);
  await page.setViewportSize({ width: 1280, height: 860 });
  for (const url of ["/", "/runs", `/runs/${started.run.id}`]) {
    await page.goto(url);
    await expect(page.locator("main").first()).toBeVisible();
    if (url.startsWith("/runs/")) await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
    const widths = await page.evaluate(() => {
      const header = document.querySelector('[data-testid="app-header"]')?.getBoundingClientRect();
      const main = document.querySelector("main")?.getBoundingClientRect();
      return { header: header?.width ?? 0, headerLeft: header?.left ?? -1, page: document.documentElement.scrollWidth, mainRight: main?.right ?? Number.POSITIVE_INFINITY };
    });
    // The header spans the page: no content is wider than it (the page does not scroll sideways) or reaches past it.
    expect(widths.header, url).toBe(1280);
    expect(widths.headerLeft, url).toBe(0);
    expect(widths.page, url).toBe(1280);
    expect(widths.mainRight, url).toBeLessThanOrEqual(1280);
  }
});
