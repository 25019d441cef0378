/** Shared steps of the e2e specs: the example names (read from the spec files) and starting a run from the home page. */
import { expect, type Page } from "@playwright/test";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

const EXAMPLES_DIRECTORY = path.join(process.cwd(), "server", "engine", "spec", "examples");

/** The names of the example workflows the server seeds, from server/engine/spec/examples/*.json. */
export function exampleNames(): string[] {
  return readdirSync(EXAMPLES_DIRECTORY)
    .filter((file) => file.endsWith(".json"))
    .map((file) => (JSON.parse(readFileSync(path.join(EXAMPLES_DIRECTORY, file), "utf8")) as { name: string }).name);
}

/** Opens the home page, types `input` into the named workflow's Run form, submits, and waits for the run page. */
export async function startRunFromHome(page: Page, workflowName: string, input: string): Promise<string> {
  await page.goto("/");
  const card = page.locator(`[data-testid="workflow-card"][data-workflow-name="${workflowName}"]`);
  await expect(card).toBeVisible();
  await card.getByTestId("run-input").fill(input);
  await card.getByTestId("run-button").click();
  await page.waitForURL(/\/runs\/run_[a-z0-9]+$/);
  await expect(page.getByTestId("run-page")).toBeVisible();
  const runId = await page.getByTestId("run-page").getAttribute("data-run-id");
  expect(runId).toMatch(/^run_/);
  return runId as string;
}

/**
 * The graph node a screen reader hears as the selection: xyflow's focusable wrapper carries `aria-current`, the
 * node inside it the session's data attributes.
 */
export function selectedGraphNode(page: Page) {
  return page.locator('.react-flow__node[aria-current="true"] [data-testid="graph-node"]');
}
