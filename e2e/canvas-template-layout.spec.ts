/**
 * A seeded template carries its stored layout (server/engine/spec/examples/layouts): the editor draws every node at
 * its stored position from the first paint, never moves one on its own (no grid that jumps to the ELK layout), and
 * a reload draws the same positions; opening it leaves the workflow unchanged (no new revision, nothing unsaved).
 */
import { expect, test, type Page } from "@playwright/test";
import { openEditor, seedExamples, trpcQuery, workflowIdByName } from "./canvas-helpers";

type Positions = Record<string, { x: number; y: number }>;

/** Every position each node of the canvas was ever drawn at since the page loaded, by node id. */
function drawnPositions(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(() => (window as unknown as { __rathDrawn: Record<string, string[]> }).__rathDrawn);
}

/** Records each React Flow node's transform whenever it is set (a jump would add a second one). */
async function recordDrawnPositions(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const drawn: Record<string, string[]> = {};
    (window as unknown as { __rathDrawn: Record<string, string[]> }).__rathDrawn = drawn;
    const note = (element: Element) => {
      const id = element.getAttribute("data-id");
      const transform = (element as HTMLElement).style.transform;
      if (id === null || transform === "") return;
      const seen = (drawn[id] ??= []);
      if (seen[seen.length - 1] !== transform) seen.push(transform);
    };
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === "attributes" && record.target instanceof Element && record.target.classList.contains("react-flow__node")) note(record.target);
        for (const added of record.addedNodes) if (added instanceof Element) for (const node of added.querySelectorAll(".react-flow__node")) note(node);
        if (record.target instanceof Element && record.target.classList.contains("react-flow__node")) note(record.target);
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["style"] });
  });
}

function translateOf(position: { x: number; y: number }): string {
  return `translate(${position.x}px, ${position.y}px)`;
}

test.beforeAll(async ({ browser }) => seedExamples(browser));

test("a seeded template opens at its stored positions at once, never jumps, and reopens identically", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const workflowId = await workflowIdByName(page, "Support triage loop");
  const { head } = await trpcQuery<{ head: { id: string; layout: { nodes: Positions }; spec: { nodes: { id: string }[] } } }>(page.request, "workflows.get", { workflowId });
  const stored = head.layout.nodes;
  expect(Object.keys(stored).sort()).toEqual(head.spec.nodes.map((node) => node.id).sort());
  // Laid out left to right, not the column-by-column grid of a workflow without positions.
  expect(new Set(Object.values(stored).map((position) => position.x)).size).toBeGreaterThan(2);
  const expected = Object.fromEntries(Object.entries(stored).map(([id, position]) => [id, [translateOf(position)]]));

  await recordDrawnPositions(page);
  for (const visit of ["open", "reload"]) {
    if (visit === "open") await openEditor(page, workflowId);
    else await page.reload();
    await expect(page.getByTestId("canvas-node")).toHaveCount(head.spec.nodes.length);
    // Validation answered and the ELK worker had its chance: whatever the editor does on open is done by now.
    await expect(page.getByTestId("problems-panel")).toHaveAttribute("data-count", "0");
    await expect(page.getByTestId("workflow-editor")).toHaveAttribute("data-revision-id", head.id);
    await expect(page.getByTestId("workflow-editor")).toHaveAttribute("data-dirty", "false");
    await expect(page.getByTestId("workflow-editor")).toHaveAttribute("data-layout-count", "0");
    // The editor found a position for every node: no open-time ELK layout was started.
    await expect(page.getByTestId("workflow-editor")).toHaveAttribute("data-open-layout", "stored");
    // Every node was drawn at exactly one position since the page loaded: its stored one.
    expect(await drawnPositions(page), visit).toEqual(expected);
  }
  const revisions = await trpcQuery<unknown[]>(page.request, "workflows.listRevisions", { workflowId, limit: 10 });
  expect(revisions).toHaveLength(1);
});
