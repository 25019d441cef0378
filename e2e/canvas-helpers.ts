/** Shared steps of the canvas specs: tRPC calls, opening the editor, exporting the canvas, drag and drop, wires, drafts. */
import { expect, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { readFile } from "node:fs/promises";
import { trpcMutation, trpcQuery } from "./trpc";

// Specs import these from here too (one implementation: ./trpc.ts).
export { trpcMutation, trpcQuery };

/** What Export downloads. */
export interface Exported {
  format: string;
  spec: { name: string; nodes: { id: string; type: string; label?: string; config: Record<string, unknown> }[]; edges: { id: string; source: string; target: string }[] };
  layout: { nodes: Record<string, { x: number; y: number }> };
}

/**
 * Visits the home page once. The server seeds the examples when it starts, so this only matters for a server
 * whose database was down at start (the home page seeds then).
 */
export async function seedExamples(browser: Browser): Promise<void> {
  const page = await browser.newPage();
  await page.goto("/");
  await page.close();
}

/** Creates a workflow (with a first revision when a spec is given) and returns its id. */
export async function createWorkflow(request: APIRequestContext, name: string, spec?: unknown, layout?: unknown): Promise<string> {
  const created = await trpcMutation<{ workflow: { id: string } }>(request, "workflows.create", { name, ...(spec ? { spec } : {}), ...(layout ? { layout } : {}) });
  return created.workflow.id;
}

/** The id of a seeded workflow, by name (visiting the home page seeds the examples). */
export async function workflowIdByName(page: Page, name: string): Promise<string> {
  await page.goto("/");
  const list = await trpcQuery<{ id: string; name: string }[]>(page.request, "workflows.list", { limit: 500, offset: 0 });
  const found = list.find((workflow) => workflow.name === name);
  expect(found, `workflow ${name}`).toBeDefined();
  return (found as { id: string }).id;
}

/** Opens the editor of a workflow and waits for the canvas. */
export async function openEditor(page: Page, workflowId: string): Promise<void> {
  await page.goto(`/workflows/${workflowId}`);
  await expect(page.getByTestId("workflow-editor")).toBeVisible();
  await expect(page.locator(".react-flow__pane")).toBeVisible();
}

/** Exports the canvas through the Export button and reads the downloaded file. */
export async function exportCanvas(page: Page): Promise<Exported> {
  const download = page.waitForEvent("download");
  await page.getByTestId("export").click();
  const file = await (await download).path();
  return JSON.parse(await readFile(file, "utf8")) as Exported;
}

/** Drops a palette item on the canvas at (x, y) of the pane. */
export async function dropFromPalette(page: Page, type: string, x: number, y: number): Promise<void> {
  await page.getByTestId(`palette-${type}`).dragTo(page.locator(".react-flow__pane"), { targetPosition: { x, y } });
}

/** Drags a wire from one port to another with the mouse; `whileOver` runs while hovering the target. */
export async function wire(page: Page, from: string, to: string, whileOver?: () => Promise<void>): Promise<void> {
  const source = await page.getByTestId(from).boundingBox();
  const target = await page.getByTestId(to).boundingBox();
  if (source === null || target === null) throw new Error(`ports ${from} / ${to} not on screen`);
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 12 });
  await page.mouse.move(target.x + target.width / 2 + 1, target.y + target.height / 2, { steps: 2 });
  if (whileOver) await whileOver();
  await page.mouse.up();
}

/** A node of the canvas by id. */
export function canvasNode(page: Page, id: string) {
  return page.locator(`[data-testid="canvas-node"][data-node-id="${id}"]`);
}

/** The canvas's zoom, read from React Flow's viewport transform. */
export async function zoomOf(page: Page): Promise<number> {
  const transform = await page.locator(".react-flow__viewport").evaluate((element) => (element as HTMLElement).style.transform);
  const match = /scale\(([\d.]+)\)/.exec(transform);
  if (match === null) throw new Error(`no scale in ${transform}`);
  return Number(match[1]);
}

/** Whether each of the elements `selector` finds lies inside the canvas pane (to a pixel). */
export async function insidePane(page: Page, selector: string): Promise<boolean> {
  const pane = await page.locator(".react-flow__pane").boundingBox();
  if (pane === null) throw new Error("no pane");
  const boxes = await page.locator(selector).evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect()).map((box) => ({ left: box.left, right: box.right, top: box.top, bottom: box.bottom })));
  return boxes.length > 0 && boxes.every((box) => box.left >= pane.x - 1 && box.right <= pane.x + pane.width + 1 && box.top >= pane.y - 1 && box.bottom <= pane.y + pane.height + 1);
}

/** Whether the canvas's view stands still: the same transform two animation frames apart (no fit or zoom animating). */
export async function viewSettled(page: Page): Promise<boolean> {
  return page.locator(".react-flow__viewport").evaluate(async (element) => {
    const before = (element as HTMLElement).style.transform;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return (element as HTMLElement).style.transform === before;
  });
}

/** Input → Agent → Output on the scripted provider, laid out left to right. */
export function linearSpec(name: string, instructions = "Answer.") {
  return {
    spec: {
      version: 1,
      name,
      settings: { defaultProvider: "scripted", defaultModel: "scripted-1" },
      nodes: [
        { id: "input", type: "input", config: {} },
        { id: "agent", type: "agent", config: { name: "agent", instructions } },
        { id: "output", type: "output", config: {} },
      ],
      edges: [
        { id: "e1", source: "input", sourcePort: "out", target: "agent", targetPort: "in" },
        { id: "e2", source: "agent", sourcePort: "out", target: "output", targetPort: "in" },
      ],
    },
    layout: { nodes: { input: { x: 0, y: 0 }, agent: { x: 320, y: 0 }, output: { x: 640, y: 0 } } },
  };
}

/** The local draft the editor keeps for a workflow (parsed), or null. */
export async function storedDraft(page: Page, workflowId: string): Promise<unknown> {
  return page.evaluate((key) => {
    const text = window.localStorage.getItem(key);
    return text === null ? null : (JSON.parse(text) as unknown);
  }, `rath-draft:${workflowId}`);
}

/** Selects a node and types a new label into the properties panel. */
export async function relabel(page: Page, nodeId: string, label: string): Promise<void> {
  await canvasNode(page, nodeId).click();
  await page.getByTestId("node-label-input").fill(label);
  await expect(canvasNode(page, nodeId)).toContainText(label);
}
