/**
 * From a session to the canvas node that produced it, at the revision the run ran: the run view's "Open node" link
 * opens the editor read-only at that revision (not the newer head), with the node selected and centred.
 */
import { expect, test } from "@playwright/test";
import { chainSpec, trpcMutation, waitForStatus, type StartedRun } from "./run-view-fixtures";
import { fitWholeGraph } from "./graph-view";

// The studio seeds its examples on the first visit of an empty database; visiting first keeps that true for the
// specs after this one (the workflows made here would otherwise count as the user's own).
test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await expect(page.locator('[data-testid="workflow-card"]').first()).toBeVisible();
});

interface Revision {
  id: string;
  number: number;
}

test("Open node leads to the producing node at the run's revision, read-only, selected and centred", async ({ page }) => {
  const spec = chainSpec(`Linked node ${Date.now()}`, "scripted", "scripted-1", 3) as { name: string; nodes: Array<{ id: string; label?: string }> };
  // Nodes far apart, so the canvas cannot show them all at a readable zoom: centring the node is visible.
  const layout = { nodes: Object.fromEntries(spec.nodes.map((node, index) => [node.id, { x: index * 900, y: (index % 2) * 600 }])) };
  const created = await trpcMutation<{ workflow: { id: string }; head: Revision }>(page.request, "workflows.create", { name: spec.name, spec, layout });
  const workflowId = created.workflow.id;
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { workflowId, input: "Go." });
  await waitForStatus(page.request, started.run.id, ["succeeded"]);
  // A newer head after the run: the link must still open the revision that ran.
  const renamed = { ...spec, nodes: spec.nodes.map((node) => (node.id === "step2" ? { ...node, label: "Step two renamed" } : node)) };
  const head = await trpcMutation<Revision>(page.request, "workflows.saveRevision", { workflowId, spec: renamed, layout, message: "rename step 2" });
  expect(head.number).toBe(created.head.number + 1);

  await page.goto(`/runs/${started.run.id}`);
  await fitWholeGraph(page);
  await page.locator('[data-testid="graph-node"][data-node-id="step2"]').first().click();
  const link = page.getByTestId("canvas-node-link");
  await expect(link).toHaveAttribute("href", `/workflows/${workflowId}?revision=${created.head.id}&node=step2`);
  await expect(link).toContainText(`rev ${created.head.number}`);
  await link.click();

  await page.waitForURL(new RegExp(`/workflows/${workflowId}\\?revision=`));
  await expect(page.getByTestId("readonly-banner")).toContainText(`Viewing revision ${created.head.number}`);
  const properties = page.getByTestId("node-properties");
  await expect(properties).toHaveAttribute("data-node-id", "step2");
  await expect(page.getByTestId("node-label-input")).toHaveValue("Step 2");
  await expect(page.getByTestId("node-label-input")).toBeDisabled();
  const node = page.locator('.react-flow__node.selected [data-testid="canvas-node"]');
  await expect(node).toHaveAttribute("data-node-id", "step2");
  // Centred in the canvas (within a few pixels, once the short pan has ended).
  const pane = page.locator(".react-flow").first();
  await expect
    .poll(async () => {
      const [box, frame] = await Promise.all([node.boundingBox(), pane.boundingBox()]);
      if (box === null || frame === null) return Number.POSITIVE_INFINITY;
      return Math.hypot(box.x + box.width / 2 - (frame.x + frame.width / 2), box.y + box.height / 2 - (frame.y + frame.height / 2));
    })
    .toBeLessThan(8);

  // Back to editing shows the head, with the new label.
  await page.getByTestId("back-to-editing").click();
  await expect(page.getByTestId("readonly-banner")).toHaveCount(0);
  await expect(page.locator('[data-testid="canvas-node"][data-node-id="step2"]')).toContainText("Step two renamed");
});

test("a link to a revision that does not exist says so and leaves the editor as it was", async ({ page }) => {
  const spec = chainSpec(`Bad link ${Date.now()}`, "scripted", "scripted-1", 1) as { name: string };
  const created = await trpcMutation<{ workflow: { id: string } }>(page.request, "workflows.create", { name: spec.name, spec });
  await page.goto(`/workflows/${created.workflow.id}?revision=rev_doesnotexist&node=step1`);
  await expect(page.getByText("Could not open that revision")).toBeVisible();
  await expect(page.getByTestId("readonly-banner")).toHaveCount(0);
  await expect(page.locator('[data-testid="canvas-node"][data-node-id="step1"]')).toBeVisible();
});
