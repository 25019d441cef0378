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
