/**
 * The keyboard walks the canvas nodes before the wires (React Flow's default order draws and focuses the edges
 * first), and a wire reached by Tab can be selected with Enter and deleted with Delete, undone with Ctrl+Z. The
 * wires' focus targets exist while focus is inside the canvas: Tab from the page into the canvas still reaches them.
 */
import { expect, test } from "@playwright/test";
import { createWorkflow, exportCanvas, linearSpec, openEditor, seedExamples } from "./canvas-helpers";

test.beforeAll(async ({ browser }) => seedExamples(browser));

test("Tab reaches every node, in the spec's order, before any wire; Enter selects a wire, Delete removes it", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const { spec, layout } = linearSpec("tab order");
  const workflowId = await createWorkflow(page.request, "E2E tab order", spec, layout);
  await openEditor(page, workflowId);
  await expect(page.locator(".react-flow__edge")).toHaveCount(2);
  // The wires' focus targets are drawn once focus is inside the canvas (not for a canvas nobody is in).
  await expect(page.locator('[data-testid="edge-focus"]')).toHaveCount(0);

  // Start just before the canvas: the last element of the palette column that takes focus.
  await page.locator(".react-flow__node").first().focus();
  await expect(page.locator('[data-testid="edge-focus"]')).toHaveCount(2);
  await page.keyboard.press("Shift+Tab");
  const order: string[] = [];
  for (let step = 0; step < 8; step++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const element = document.activeElement;
      if (element === null || element.closest(".react-flow__viewport") === null) return null;
      const flowNode = element.closest(".react-flow__node");
      if (flowNode !== null) return `node:${flowNode.getAttribute("data-id")}`;
      return `wire:${element.getAttribute("data-edge-id")}`;
    });
    if (focused === null) break;
    order.push(focused);
  }
  expect(order).toEqual(["node:input", "node:agent", "node:output", "wire:e1", "wire:e2"]);

  // The last wire is focused-through: go back to it, select it, delete it.
  const wire = page.locator('[data-testid="edge-focus"][data-edge-id="e2"]');
  await wire.focus();
  await expect(wire).toHaveAccessibleName("Wire from agent to Output");
  await page.keyboard.press("Enter");
  await expect(wire).toHaveAttribute("aria-pressed", "true");
  await expect(page.locator('.react-flow__edge.selected[data-id="e2"]')).toHaveCount(1);
  await page.keyboard.press("Delete");
  await expect(page.locator(".react-flow__edge")).toHaveCount(1);
  expect((await exportCanvas(page)).spec.edges.map((edge) => edge.id)).toEqual(["e1"]);
  await page.locator(".react-flow__pane").click({ position: { x: 12, y: 12 } });
  await page.keyboard.press("Control+z");
  await expect(page.locator(".react-flow__edge")).toHaveCount(2);
});
