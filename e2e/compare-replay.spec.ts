/**
 * Compare and demo replay on the production build, on the seeded Fork/merge research template (demo provider):
 * the two branches compared from the run view (common ancestor, divergence, word diff marks, deltas, no overflow at
 * 390 px), and the finished run replayed at 16× until the graph holds every session, with keyboard pause and step.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { startRunFromHome } from "./helpers";
import { formatDelta } from "../components/compare/align-chunks";
import { formatTokens } from "../components/ui/format";
import { sessionGraph, trpcQuery } from "./run-view-fixtures";

test("compare the two fork branches: common ancestor, divergence and word diff marks", async ({ page }) => {
  const runId = await startRunFromHome(page, "Fork/merge research", "Compare SQLite and PostgreSQL.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  const graph = await sessionGraph(page.request, runId);
  const pros = graph.sessions.find((session) => session.nodeId === "pros" && session.lineage.lineage_kind === "op_session_loop");
  const cons = graph.sessions.find((session) => session.nodeId === "cons" && session.lineage.lineage_kind === "op_session_loop");
  if (pros === undefined || cons === undefined) throw new Error("expected both branches");

  await page.goto(`/runs/${runId}?session=${pros.id}`);
  await page.getByTestId("compare-with").click();
  await page.locator(`[data-testid="compare-candidate"][data-session-id="${cons.id}"]`).click();
  await page.waitForURL(/\/compare\?/);
  const view = page.getByTestId("compare-view");
  await expect(view).toBeVisible();
  await expect(page.getByTestId("compare-left")).toHaveAttribute("data-session-id", pros.id);
  await expect(page.getByTestId("compare-right")).toHaveAttribute("data-session-id", cons.id);
  // Both branches fork the input: their common ancestor is the input session, and they share its chunk.
  const ancestor = await page.getByTestId("compare-ancestor").getAttribute("data-session-id");
  const input = graph.sessions.find((session) => session.nodeId === "input");
  expect(ancestor).toBe(input?.id);
  await expect(page.getByTestId("compare-prefix")).toHaveAttribute("data-count", "1");
  await expect(view).toHaveAttribute("data-divergence", "1");
  const changed = page.locator('[data-testid="compare-row"][data-state="changed"]').first();
  await expect(changed).toBeVisible();
  await expect(changed.getByTestId("diff-removed").first()).toBeVisible();
  await expect(changed.getByTestId("diff-added").first()).toBeVisible();
  await expect(page.getByTestId("compare-delta-tokens")).toHaveText(/^[+−±][\d,]+ tok$/);
  // The deltas are B − A of what the server measured after the divergence (tokens the model reported, its latency).
  const { stats } = await trpcQuery<{ stats: Record<"left" | "right", { tokens: number; latencyMs: number }> }>(page.request, "sessions.compare", { leftId: pros.id, rightId: cons.id });
  await expect(page.getByTestId("compare-delta-tokens")).toHaveText(formatDelta(stats.right.tokens - stats.left.tokens, " tok"));
  await expect(page.getByTestId("compare-delta-latency")).toHaveText(formatDelta(stats.right.latencyMs - stats.left.latencyMs, " ms"));
  await expect(page.getByTestId("compare-left-tokens")).toContainText(formatTokens(stats.left.tokens));
  // The diff marks (and the rest of the page) keep AA contrast in both themes.
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    if (scheme === "dark") await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    else await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
    const axe = await new AxeBuilder({ page }).include('[data-testid="compare-page"]').analyze();
    expect(axe.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical"), scheme).toEqual([]);
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(changed).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test("replay: a modal presentation at 16× grows the graph to every session; keys pause, step, rewind, change speed and leave", async ({ page }) => {
  const runId = await startRunFromHome(page, "Fork/merge research", "Replay me.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  const graph = await sessionGraph(page.request, runId);
  await page.reload();
  await page.getByTestId("replay-button").click();
  const replay = page.getByTestId("replay");
  await expect(replay).toBeVisible();
  await expect(replay).not.toHaveAttribute("data-total", "0");
  // The demo run takes milliseconds; at 1× each event still gets its own beat (250 ms), so the replay can be followed.
  const total = Number(await replay.getAttribute("data-total"));
  expect(total).toBeGreaterThan(graph.sessions.length);
  expect(Number(await replay.getAttribute("data-duration"))).toBeGreaterThanOrEqual((total - 1) * 250);
  await page.keyboard.press("6");
  await expect(replay).toHaveAttribute("data-speed", "16");
  // At 16× the whole run plays back; the graph ends with every session of the run.
  await expect(replay).toHaveAttribute("data-sessions", String(graph.sessions.length));
  await expect(replay).toHaveAttribute("data-shown", String(total));
  await expect(replay).toHaveAttribute("data-playing", "false");

  // Home: back before the first event, paused (the graph leaves the page without breaking it); the arrows step
  // one event; Space plays on to the end.
  await page.keyboard.press("Home");
  await expect(replay).toHaveAttribute("data-shown", "0");
  await expect(replay).toHaveAttribute("data-sessions", "0");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(replay).toHaveAttribute("data-shown", "2");
  await page.keyboard.press("ArrowLeft");
  await expect(replay).toHaveAttribute("data-shown", "1");
  await expect(replay).toHaveAttribute("data-playing", "false");
  await page.keyboard.press(" ");
  await expect(replay).toHaveAttribute("data-shown", String(total));
  await expect(replay).toHaveAttribute("data-sessions", String(graph.sessions.length));
  await expect(replay.getByTestId("replay-chunk").first()).toBeVisible();
  await page.keyboard.press("4");
  await expect(replay).toHaveAttribute("data-speed", "4");
  await page.keyboard.press("1");
  await expect(replay).toHaveAttribute("data-speed", "1");

  // A modal: Tab stays inside it; Esc leaves, and focus goes back to the Replay button.
  for (let press = 0; press < 12; press += 1) await page.keyboard.press("Tab");
  expect(await replay.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(replay).toHaveCount(0);
  await expect(page.getByTestId("replay-button")).toBeFocused();
  await expect(page.getByTestId("run-page")).toHaveAttribute("data-run-id", runId);

  // The exit button leaves too.
  await page.getByTestId("replay-button").click();
  await expect(replay).toBeVisible();
  await page.getByTestId("replay-exit").click();
  await expect(replay).toHaveCount(0);
});

/** Where the replay's graph nodes are drawn, against the graph pane and the overlays on it (legend, zoom controls). */
async function replayGraphFit(page: Page) {
  return page.getByTestId("replay").evaluate((root) => {
    const graph = root.querySelector<HTMLElement>('[data-testid="session-graph"]');
    if (graph === null) return null;
    const pane = graph.getBoundingClientRect();
    const overlays = [...graph.querySelectorAll("[data-graph-overlay], .react-flow__controls")].map((element) => element.getBoundingClientRect());
    const nodes = [...graph.querySelectorAll(".react-flow__node")].map((element) => element.getBoundingClientRect());
    const slack = 0.5;
    const inside = nodes.filter((node) => node.left >= pane.left - slack && node.right <= pane.right + slack && node.top >= pane.top - slack && node.bottom <= pane.bottom + slack).length;
    const covered = nodes.filter((node) => overlays.some((cover) => node.left < cover.right && node.right > cover.left && node.top < cover.bottom && node.bottom > cover.top)).length;
    const spanX = (Math.max(...nodes.map((node) => node.right)) - Math.min(...nodes.map((node) => node.left))) / pane.width;
    const spanY = (Math.max(...nodes.map((node) => node.bottom)) - Math.min(...nodes.map((node) => node.top))) / pane.height;
    // xyflow draws only the nodes in view (onlyRenderVisibleElements): a node cut off the pane is missing from `drawn`.
    return { expected: Number(graph.dataset.nodeCount), drawn: nodes.length, inside, covered, fills: Math.round(Math.max(spanX, spanY) * 100) / 100 };
  });
}

test("replay: the graph is fitted into the visible pane — beside the chunk panel at 1280 px, above it at 390 px, never under the legend", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const runId = await startRunFromHome(page, "Fork/merge research", "Fit me.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  const graph = await sessionGraph(page.request, runId);
  await page.reload();
  await page.getByTestId("replay-button").click();
  const replay = page.getByTestId("replay");
  // The run's events load after the dialog opens: read the total once it is known.
  await expect(replay).not.toHaveAttribute("data-total", "0");
  await page.keyboard.press("6");
  const total = await replay.getAttribute("data-total");
  await expect(replay).toHaveAttribute("data-shown", total ?? "");
  await expect(replay).toHaveAttribute("data-sessions", String(graph.sessions.length));
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    // Every node drawn, wholly inside the pane, none under an overlay, and the graph filling the pane one way (not small).
    await expect
      .poll(async () => {
        const fit = await replayGraphFit(page);
        return { ...fit, allDrawn: fit !== null && fit.expected > 0 && fit.drawn === fit.expected, allInside: fit?.inside === fit?.expected, fillsPane: (fit?.fills ?? 0) >= 0.6 };
      }, { message: `graph fitted at ${viewport.width} px` })
      .toMatchObject({ allDrawn: true, allInside: true, covered: 0, fillsPane: true });
    await page.screenshot({ path: `test-results/replay-fit-${viewport.width}.png` });
  }
});
