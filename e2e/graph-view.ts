/**
 * Reading the session graph's view in e2e: the zoom of xyflow's viewport, and whether a session's node is drawn
 * inside the graph's pane.
 */
import { expect, type Page } from "@playwright/test";

/** The graph's current zoom (the scale of xyflow's viewport transform). */
export async function graphZoom(page: Page): Promise<number> {
  return page.getByTestId("session-graph").locator(".react-flow__viewport").evaluate((element) => new DOMMatrixReadOnly(getComputedStyle(element).transform).a);
}

/** Whether the node of `sessionId` is drawn wholly inside the graph's pane. */
export async function nodeInPane(page: Page, sessionId: string): Promise<boolean> {
  return page.evaluate((id) => {
    const pane = document.querySelector('[data-testid="session-graph"]')?.getBoundingClientRect();
    const node = document.querySelector(`[data-testid="graph-node"][data-session-id="${id}"]`)?.getBoundingClientRect();
    if (pane === undefined || node === undefined) return false;
    return node.left >= pane.left - 1 && node.right <= pane.right + 1 && node.top >= pane.top - 1 && node.bottom <= pane.bottom + 1;
  }, sessionId);
}

/** The left edge (px on screen) of each session's node, in the order given (null when not drawn). */
export async function nodeLefts(page: Page, sessionIds: readonly string[]): Promise<Array<number | null>> {
  return page.evaluate((ids) => ids.map((id) => document.querySelector(`[data-testid="graph-node"][data-session-id="${id}"]`)?.getBoundingClientRect().left ?? null), sessionIds);
}

/** Fits the whole graph into its pane (it opens readable, on its start or newest session, so a node may be out of view). */
export async function fitWholeGraph(page: Page): Promise<void> {
  const graph = page.getByTestId("session-graph");
  // After the final layout: the opening view is set then, and would replace this one.
  await expect(graph).toHaveAttribute("data-layout", /^(elk|quick)$/);
  await graph.locator(".react-flow__controls-fitview").click();
}

/**
 * The smallest on-screen size (px) of the names of the nodes drawn wholly inside the pane: each name's font size times
 * the graph's zoom, and how many names that is (`smallest` is Infinity when none). A name reads at 11 px or more.
 */
export async function smallestNameOnScreen(page: Page): Promise<{ names: number; smallest: number }> {
  return page.evaluate(() => {
    const graph = document.querySelector('[data-testid="session-graph"]');
    const viewport = graph?.querySelector(".react-flow__viewport");
    if (graph === null || graph === undefined || viewport === null || viewport === undefined) return { names: 0, smallest: Number.POSITIVE_INFINITY };
    const zoom = new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a;
    const pane = graph.getBoundingClientRect();
    const sizes = [...graph.querySelectorAll<HTMLElement>(".react-flow__node [data-node-title]")]
      .filter((name) => {
        const box = name.closest(".react-flow__node")?.getBoundingClientRect();
        return box !== undefined && box.left >= pane.left - 1 && box.right <= pane.right + 1 && box.top >= pane.top - 1 && box.bottom <= pane.bottom + 1;
      })
      .map((name) => Number.parseFloat(getComputedStyle(name).fontSize) * zoom);
    return { names: sizes.length, smallest: sizes.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...sizes) };
  });
}

/** How many nodes are drawn wholly inside the pane. */
export async function nodesInPane(page: Page): Promise<number> {
  return page.evaluate(() => {
    const pane = document.querySelector('[data-testid="session-graph"]')?.getBoundingClientRect();
    if (pane === undefined) return 0;
    return [...document.querySelectorAll('[data-testid="session-graph"] .react-flow__node')]
      .map((node) => node.getBoundingClientRect())
      .filter((box) => box.left >= pane.left - 1 && box.right <= pane.right + 1 && box.top >= pane.top - 1 && box.bottom <= pane.bottom + 1).length;
  });
}
