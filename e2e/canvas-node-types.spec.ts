/**
 * Every node type of NODE_TYPES has its own node on the canvas: opening each seeded template in the editor draws
 * each node with its type's icon, its name, the config that matters at a glance (model, tools, candidates, fork
 * count…) and exactly its type's typed ports; across the templates all 11 types appear.
 */
import { expect, test } from "@playwright/test";
import { NODE_PORTS } from "../runtime/workflow-spec/ports";
import { NODE_TYPES, type NodeType } from "../runtime/workflow-spec/workflow-spec";
import { canvasNode, createWorkflow, openEditor, seedExamples, trpcQuery } from "./canvas-helpers";
import { exampleNames } from "./helpers";

/** The summary row every node of a type shows (node-catalog.ts), by its label. */
const GLANCE: Record<NodeType, string> = {
  input: "default",
  agent: "model",
  tool: "",
  selector: "picks",
  fork: "branches",
  merge: "joins",
  compressor: "model",
  memory: "store",
  approval: "asks",
  subworkflow: "runs",
  output: "result",
};

test.beforeAll(async ({ browser }) => seedExamples(browser));

test("each template's nodes are drawn by their type's component: icon, name, config at a glance, typed ports; all 11 types appear", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const workflows = await trpcQuery<{ id: string; name: string }[]>(page.request, "workflows.list", { limit: 500, offset: 0 });
  const seen = new Set<string>();
  for (const name of exampleNames()) {
    const workflow = workflows.find((candidate) => candidate.name === name);
    expect(workflow, name).toBeDefined();
    const { head } = await trpcQuery<{ head: { spec: { name: string; nodes: { id: string; type: NodeType; label?: string }[] } } }>(page.request, "workflows.get", { workflowId: workflow?.id });
    // A copy with positions, so the editor does not lay it out (and refit it) after opening.
    const layout = { nodes: Object.fromEntries(head.spec.nodes.map((entry, index) => [entry.id, { x: (index % 4) * 320, y: Math.floor(index / 4) * 240 }])) };
    const copyId = await createWorkflow(page.request, `E2E types ${name}`, head.spec, layout);
    await openEditor(page, copyId);
    // Zoomed in enough for the full look (summary rows and port names are left out of the far look).
    await expect(page.getByTestId("canvas-node").first()).toBeVisible();
    for (let step = 0; step < 8 && (await page.locator('[data-testid="canvas-node"][data-far="true"]').count()) > 0; step++) await page.getByRole("button", { name: "Zoom In" }).click();
    await expect(page.locator('[data-testid="canvas-node"][data-far="true"]')).toHaveCount(0);
    for (const specNode of head.spec.nodes) {
      const drawn = canvasNode(page, specNode.id);
      await expect(drawn, `${name}: ${specNode.id}`).toHaveAttribute("data-node-type", specNode.type);
      await expect(drawn.locator("svg").first()).toBeAttached();
      if (specNode.label !== undefined) await expect(drawn).toContainText(specNode.label);
      if (GLANCE[specNode.type] !== "") await expect(drawn.locator("dt").filter({ hasText: GLANCE[specNode.type] }).first()).toBeAttached();
      const ports = NODE_PORTS[specNode.type];
      const expected = [...ports.inputs.map((port) => `in-${port.name}:${port.type}`), ...ports.outputs.map((port) => `out-${port.name}:${port.type}`)].sort();
      const handles = await page.locator(`.react-flow__node[data-id="${specNode.id}"] .rath-port`).evaluateAll((elements, id) => elements.map((element) => `${(element.getAttribute("data-testid") ?? "").slice(`port-${id}-`.length)}:${element.getAttribute("data-port-type")}`).sort(), specNode.id);
      expect(handles, `${name}: ports of ${specNode.id}`).toEqual(expected);
      seen.add(specNode.type);
    }
  }
  expect([...seen].sort()).toEqual([...NODE_TYPES].sort());
});
