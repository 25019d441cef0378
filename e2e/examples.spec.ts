import { expect, test } from "@playwright/test";
import { exampleNames, selectedGraphNode, startRunFromHome } from "./helpers";
import { trpcMutation, trpcQuery } from "./trpc";
import { fitWholeGraph } from "./graph-view";

// First in this file, before any page is opened: the examples come from the server's start, not from the home page.
test("the server seeds the examples when it starts: the API lists them before any page was opened, next to an API-made workflow", async ({ request }) => {
  await trpcMutation(request, "workflows.create", { name: `API first ${Date.now()}` });
  const listed = await trpcQuery<Array<{ name: string }>>(request, "workflows.list", { limit: 500, offset: 0 });
  const names = listed.map((workflow) => workflow.name);
  for (const name of exampleNames()) expect(names.filter((listedName) => listedName === name), name).toHaveLength(1);
});

test("the fork/merge example shows two forks merged into one session", async ({ page }) => {
  await startRunFromHome(page, "Fork/merge research", "Compare SQLite and PostgreSQL.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  await fitWholeGraph(page);
  await expect(page.locator('[data-testid="graph-node"][data-lineage-kind="op_fork"]')).toHaveCount(2);
  const merge = page.locator('[data-testid="graph-node"][data-lineage-kind="op_merge"]');
  await expect(merge).toHaveCount(1);
  await merge.click();
  // The prefix both forks share is listed once, collapsed; opening it shows the question.
  const shared = page.locator('[data-testid="chunk-segment"][data-kind="shared"]');
  await expect(shared).toHaveAttribute("data-collapsed", "true");
  await shared.getByRole("button", { expanded: false }).click();
  const chunks = page.getByTestId("chunk-list").getByTestId("chunk");
  await expect(chunks.filter({ hasText: "Compare SQLite and PostgreSQL." }).first()).toBeVisible();
  await expect(page.getByTestId("chunk-list").locator('[data-kind="assistant"]').first()).toBeVisible();
});

test("the selector example shows the router's route decision", async ({ page }) => {
  await startRunFromHome(page, "Selector loop", "Write a haiku about branches.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  // A graph this small draws every session (no chain folds the router away).
  await expect(page.getByTestId("graph-chain")).toHaveCount(0);
  await fitWholeGraph(page);
  const router = page.locator('[data-testid="graph-node"][data-node-id="router"]').first();
  await router.click();
  await expect(router).toHaveAttribute("data-selected", "true");
  await expect(selectedGraphNode(page)).toHaveAttribute("data-session-id", (await router.getAttribute("data-session-id")) as string);
  const decision = page.getByTestId("chunk-list").getByTestId("route-decision").first();
  await expect(decision).toBeVisible();
  await expect(decision).toContainText("chose");
  await expect(decision.getByTestId("route-chosen")).toHaveText(/^(Editor|Writer|done)$/);
  await page.screenshot({ path: "test-results/screenshots/run-selector.png", fullPage: false });
});

test("the memory example recalls in a later run what an earlier run was told", async ({ page }) => {
  const fact = `My parcel code is ${Date.now()}.`;
  await startRunFromHome(page, "Notes with memory", fact);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  await fitWholeGraph(page);
  const loop = page.locator('[data-testid="graph-node"][data-node-id="assistant"][data-lineage-kind="op_session_loop"]');
  await loop.click();
  // The first run finds nothing to recall; it remembers its answer and commits the message.
  const firstMemory = page.getByTestId("chunk-list").locator('[data-testid="chunk"][data-kind="memory"]');
  await expect(firstMemory).toHaveCount(2);
  await expect(firstMemory.nth(0)).toContainText("remember · notes");
  await expect(firstMemory.nth(1)).toContainText("commit · notes");

  await startRunFromHome(page, "Notes with memory", "What is my parcel code?");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  await fitWholeGraph(page);
  await page.locator('[data-testid="graph-node"][data-node-id="assistant"][data-lineage-kind="op_session_loop"]').click();
  const recall = page.getByTestId("chunk-list").locator('[data-testid="chunk"][data-kind="memory"]').first();
  await expect(recall).toContainText("recall · notes · query: What is my parcel code?");
  await expect(recall.getByTestId("memory-hit")).toHaveCount(1);
  await expect(recall.getByTestId("memory-hit")).toContainText(fact);
  await page.screenshot({ path: "test-results/screenshots/run-memory.png", fullPage: false });
});

test("the MCP template runs on the production build: the filesystem server starts from the installed package and the answer names the folder's files", async ({ page }) => {
  // The server bundle must not turn the MCP server's entry point into a bundler module id (it once became "239787").
  await startRunFromHome(page, "MCP file reader", "List the files, then read the release notes and tell me what changed.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  await expect(page.getByTestId("run-errors")).toHaveCount(0);
  // What the server's list_directory answered (the output preview stops after it).
  await expect(page.getByTestId("run-output")).toContainText("The folder holds: README.md release-notes.md.");
});
