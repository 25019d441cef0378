/**
 * How the run page's session graph looks to a person (issue 10): a finished fork/merge run opens with its selected
 * session (the output) in view with the sessions it was made from, names readable; in a run of 5,000 sessions the
 * collapsed chains' names are not cut, a 400-thread fan-out leaves its root along one trunk instead of a band of
 * curves, and the legend never covers the graph; an imported run's header says where it came from.
 */
import { expect, test, type Page } from "@playwright/test";
import { explorerRun } from "../bench/explorer-graph";
import { nodeInPane, nodesInPane, smallestNameOnScreen } from "./graph-view";
import { selectedGraphNode, startRunFromHome } from "./helpers";
import { sessionGraph, trpcMutation, trpcQuery, type GraphSession } from "./run-view-fixtures";

const WIDTHS = [1280, 390] as const;

/** Sessions drawn as their own node: prompt sessions are folded into the turn they feed. */
function drawnSessions(sessions: readonly GraphSession[]): GraphSession[] {
  return sessions.filter((session) => !(session.lineage.lineage_kind === "leaf_system" && session.lineage.parent_session_ids.length === 0));
}

async function openFinished(page: Page, runId: string, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 860 });
  await page.goto(`/runs/${runId}`);
  const graph = page.getByTestId("session-graph");
  await expect(graph).toHaveAttribute("data-layout", /^(elk|quick)$/, { timeout: 60_000 });
}

/** The legend's box and the graph pane's box do not overlap (so no node can be under the legend). */
async function legendClearOfPane(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const pane = document.querySelector('[data-testid="session-graph"]')?.getBoundingClientRect();
    const legend = document.querySelector('[data-testid="graph-legend-bar"], [data-testid="graph-legend"]')?.getBoundingClientRect();
    if (pane === undefined || legend === undefined) return false;
    return legend.top >= pane.bottom - 0.5 || legend.bottom <= pane.top + 0.5 || legend.left >= pane.right - 0.5 || legend.right <= pane.left + 0.5;
  });
}

test("a finished fork/merge run opens on its output with the sessions it was made from, names readable, at 1280 and 390 px", async ({ page }) => {
  const runId = await startRunFromHome(page, "Fork/merge research", "Compare SQLite and PostgreSQL.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  const graph = await sessionGraph(page.request, runId);
  const drawn = new Set(drawnSessions(graph.sessions).map((session) => session.id));
  for (const width of WIDTHS) {
    await openFinished(page, runId, width);
    // The default selection is the run's output (the Editor's session).
    const selected = (await selectedGraphNode(page).getAttribute("data-session-id")) as string;
    const session = graph.sessions.find((entry) => entry.id === selected) as GraphSession;
    expect(session, `selection at ${width} px`).toBeDefined();
    await expect.poll(() => nodeInPane(page, selected), `the selected session in view at ${width} px`).toBe(true);
    for (const parent of session.lineage.parent_session_ids.filter((id) => drawn.has(id))) {
      expect(await nodeInPane(page, parent), `its parent ${parent} in view at ${width} px`).toBe(true);
    }
    // Every name in view reads at 11 px or more on screen (the far look below the near look's zoom).
    const names = await smallestNameOnScreen(page);
    expect(names.names, `names in view at ${width} px`).toBeGreaterThanOrEqual(2);
    expect(names.smallest, `smallest name at ${width} px`).toBeGreaterThanOrEqual(11);
    expect(await legendClearOfPane(page), `legend beside the pane at ${width} px`).toBe(true);
    // In the laptop's pane (about 500 px beside the session panel) the view also shows the branches the merge joined:
    // the output, the merge, and both branches.
    if (width === 1280) {
      const grandparents = graph.sessions.filter((entry) => session.lineage.parent_session_ids.includes(entry.id)).flatMap((parent) => parent.lineage.parent_session_ids).filter((id) => drawn.has(id));
      expect(grandparents.length).toBeGreaterThanOrEqual(2);
      for (const id of grandparents) expect(await nodeInPane(page, id), `grandparent ${id} in view at ${width} px`).toBe(true);
      expect(await nodesInPane(page)).toBeGreaterThanOrEqual(4);
    }
  }
});

test("a run of 5,000 sessions: chain names are not cut, a fan-out leaves along one trunk, the legend covers nothing", async ({ page }) => {
  test.setTimeout(240_000);
  const generated = explorerRun(5000, 5000);
  const imported = await trpcMutation<{ runId: string }>(page.request, "transfer.importBundle", { content: generated.bundle, fileName: "five-thousand.jsonl" });
  const graph = await sessionGraph(page.request, imported.runId);
  // The question fans out to 400 threads (one fork each).
  const question = graph.sessions.find((session) => graph.sessions.filter((child) => child.lineage.parent_session_ids.includes(session.id) && child.lineage.lineage_kind === "op_fork").length >= 100) as GraphSession;
  expect(question).toBeDefined();
  for (const width of WIDTHS) {
    await openFinished(page, imported.runId, width);
    await expect(page.getByTestId("session-graph")).toHaveAttribute("data-session-count", "5000", { timeout: 60_000 });
    expect(await legendClearOfPane(page), `legend beside the pane at ${width} px`).toBe(true);

    // Collapsed chains in view: their names fit their nodes (the whole wording is in the tooltip).
    const chains = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[data-testid="graph-chain"]')].map((chain) => ({
        tooltip: chain.getAttribute("title") ?? "",
        cut: [...chain.querySelectorAll<HTMLElement>("[data-node-title]")].filter((name) => name.scrollWidth > name.clientWidth + 1).map((name) => name.textContent),
        names: chain.querySelectorAll("[data-node-title]").length,
      })),
    );
    expect(chains.length, `chains drawn at ${width} px`).toBeGreaterThan(0);
    for (const chain of chains) {
      expect(chain.names).toBe(1);
      expect(chain.cut, `a chain's name cut at ${width} px`).toEqual([]);
      expect(chain.tooltip).toMatch(/^\d+ sessions in a chain/);
    }
  }

  // The fan-out's edges share one trunk: sampled along their length, the long ones lie on one vertical line
  // (400 curves from one node would fill the gap between the layers with a band).
  await page.goto(`/runs/${imported.runId}?session=${question.id}`);
  await expect(page.getByTestId("session-graph")).toHaveAttribute("data-layout", "quick", { timeout: 60_000 });
  await expect(page.locator(`[data-testid="graph-edge"][data-source="${question.id}"]`).first()).toBeAttached();
  const spread = await page.evaluate((source) => {
    const xs: number[] = [];
    let edges = 0;
    for (const group of document.querySelectorAll(`[data-testid="graph-edge"][data-source="${source}"]`)) {
      const path = group.querySelector<SVGPathElement>("path.react-flow__edge-path") ?? group.querySelector<SVGPathElement>("path");
      if (path === null) continue;
      const length = path.getTotalLength();
      const start = path.getPointAtLength(0);
      const end = path.getPointAtLength(length);
      if (Math.abs(end.y - start.y) < 300) continue;
      edges += 1;
      for (const share of [0.25, 0.4, 0.6, 0.75]) xs.push(path.getPointAtLength(length * share).x);
    }
    return { edges, spread: xs.length === 0 ? Number.POSITIVE_INFINITY : Math.max(...xs) - Math.min(...xs) };
  }, question.id);
  expect(spread.edges).toBeGreaterThan(2);
  expect(spread.spread).toBeLessThanOrEqual(2);
});

test("an imported run's header says where it came from: no JSON, no stray dash", async ({ page }) => {
  const runId = await startRunFromHome(page, "Fork/merge research", "Import me.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  const exported = await trpcQuery<{ bundle: { content: string } }>(page.request, "transfer.exportRun", { runId, dialect: "rath" });
  const imported = await trpcMutation<{ runId: string }>(page.request, "transfer.importBundle", { content: exported.bundle.content, fileName: "fork-merge-research.jsonl" });
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 860 });
    await page.goto(`/runs/${imported.runId}`);
    const input = page.getByTestId("run-input-text");
    await expect(input).toContainText("Imported from fork-merge-research.jsonl");
    await expect(input).toContainText(runId);
    await expect(input).not.toContainText("{");
    // Tokens, cost and duration: once the cost is read, the figures end with it (an imported run has no duration here,
    // and no dash stands in for one).
    const stats = page.getByTestId("run-tokens").locator("xpath=..");
    await expect.poll(async () => (await stats.innerText()).trim(), `header figures at ${width} px`).toMatch(/(set price|\$[\d.]+)$/);
    await expect(page.getByTestId("run-duration")).toHaveCount(0);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
    expect(wide, `page wider than ${width} px`).toBe(false);
  }
});
