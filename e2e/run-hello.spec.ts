import { expect, test } from "@playwright/test";
import { selectedGraphNode, startRunFromHome } from "./helpers";

test("a run of the hello example started from the UI succeeds and shows its sessions and chunks", async ({ page }) => {
  const input = `List the workspace please (e2e ${Date.now()})`;
  const runId = await startRunFromHome(page, "Hello agent", input);

  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  await expect(page.getByTestId("demo-provider-label")).toBeVisible();
  await expect(page.getByTestId("run-output")).toContainText(`You said: "${input}"`);
  await expect(page.getByTestId("run-input-text")).toHaveText(input);

  const nodes = page.getByTestId("graph-node");
  await expect(nodes.first()).toBeVisible();
  await expect(page.locator('[data-testid="graph-node"][data-node-id="assistant"]').first()).toBeVisible();
  await expect(page.locator('[data-testid="graph-node"][data-node-id="input"]').first()).toBeVisible();

  const chunks = page.getByTestId("chunk-list");
  await expect(chunks.locator('[data-testid="chunk"][data-kind="user"]').getByTestId("chunk-text").filter({ hasText: input }).first()).toBeVisible();
  await expect(chunks.locator('[data-testid="chunk"][data-kind="assistant"]').first()).toBeVisible();
  await expect(chunks.locator('[data-testid="chunk-tool-call"]').first()).toContainText("run_shell_command");
  const toolResult = chunks.locator('[data-testid="chunk"][data-kind="tool_result"]').first();
  await expect(toolResult.getByTestId("tool-evidence")).toHaveAttribute("data-ok", "true");
  await expect(toolResult.getByTestId("chunk-text")).toContainText('"exit_code":0');

  // Selecting the input session shows only its one user chunk.
  await page.locator('[data-testid="graph-node"][data-node-id="input"]').first().click();
  await expect(page.getByTestId("chunk-list").getByTestId("chunk")).toHaveCount(1);
  await expect(page.getByTestId("chunk-list").getByTestId("chunk-kind")).toHaveText("user");
  const loop = page.locator('[data-testid="graph-node"][data-node-id="assistant"][data-lineage-kind="op_session_loop"]');
  await loop.click();
  await expect(loop).toHaveAttribute("data-selected", "true");
  await expect(selectedGraphNode(page)).toHaveAttribute("data-session-id", (await loop.getAttribute("data-session-id")) as string);
  await expect(page.getByTestId("chunk-list").locator('[data-kind="tool_result"]').first()).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/run-hello.png", fullPage: false });

  // The home page now lists the run as succeeded.
  await page.getByTestId("nav-home").click();
  const row = page.locator(`[data-testid="recent-run-row"][data-run-id="${runId}"]`);
  await expect(row.getByTestId("recent-run-status")).toHaveAttribute("data-status", "succeeded");
  await expect(row.getByTestId("recent-run-workflow")).toHaveText("Hello agent");
  const card = page.locator('[data-testid="workflow-card"][data-workflow-name="Hello agent"]');
  await expect(card.getByTestId("workflow-last-run-status")).toHaveAttribute("data-status", "succeeded");
});
