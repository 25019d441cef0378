/**
 * Runs lists that stay current: the home page's recent runs and its workflow cards' latest-run badge follow a run
 * started elsewhere without a reload, and the /runs filters (status, workflow, search) live in the URL, so a
 * reload or a copied link keeps them.
 */
import { expect, test } from "@playwright/test";
import { createWorkflow, linearSpec, trpcMutation, workflowIdByName } from "./canvas-helpers";

async function startRun(request: Parameters<typeof trpcMutation>[0], workflowId: string, input: string): Promise<string> {
  const started = await trpcMutation<{ run: { id: string } }>(request, "runs.start", { workflowId, input });
  return started.run.id;
}

test("the home page shows a run started elsewhere, and its workflow card's badge turns to the run's status, without a reload", async ({ page }) => {
  await page.goto("/");
  const { spec, layout } = linearSpec("Live home");
  const workflowId = await createWorkflow(page.request, "Live home", spec, layout);
  await page.reload();
  const card = page.locator(`[data-testid="workflow-card"][data-workflow-name="Live home"]`);
  await expect(card).toBeVisible();
  await expect(card.getByTestId("workflow-last-run-status")).toHaveText("never");
  // A mark on the window survives only if the page is never reloaded (router.refresh() re-renders in place).
  await page.evaluate(() => ((window as unknown as { __notReloaded: boolean }).__notReloaded = true));

  const runId = await startRun(page.request, workflowId, "from another tab");
  const row = page.locator(`[data-testid="recent-run-row"][data-run-id="${runId}"]`);
  // The list refetches every 10 s when nothing moves (every 2 s while a run is queued or running).
  await expect(row).toBeVisible({ timeout: 15_000 });
  await expect(row.getByTestId("recent-run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 15_000 });
  await expect(card.getByTestId("workflow-last-run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 15_000 });
  expect(await page.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded)).toBe(true);
});

test("/runs filters by status, workflow and search, keeps them in the URL, and a reload keeps them", async ({ page }) => {
  const approvalId = await workflowIdByName(page, "Approval");
  const first = await createWorkflow(page.request, "Filter alpha", linearSpec("Filter alpha").spec, linearSpec("Filter alpha").layout);
  const second = await createWorkflow(page.request, "Filter beta", linearSpec("Filter beta").spec, linearSpec("Filter beta").layout);
  const alphaRun = await startRun(page.request, first, "a");
  const betaRun = await startRun(page.request, second, "b");
  // An approval run stops and waits for a person: a status the other two never have.
  const waitingRun = await startRun(page.request, approvalId, "needs a yes");

  await page.goto("/runs");
  const ids = () => page.getByTestId("recent-run-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-run-id")));
  await expect(page.locator(`[data-testid="recent-run-row"][data-run-id="${alphaRun}"]`)).toBeVisible();

  await page.getByTestId("run-filter-search").fill("Filter be");
  await expect(page).toHaveURL(/\/runs\?q=Filter\+be$/);
  await expect.poll(ids).toEqual([betaRun]);

  await page.getByTestId("run-filter-search").fill("");
  await page.getByTestId("run-filter-status").selectOption("waiting");
  await expect(page).toHaveURL(/\/runs\?status=waiting$/);
  await expect.poll(ids, { timeout: 20_000 }).toContain(waitingRun);
  expect(await ids()).not.toContain(alphaRun);

  await page.reload();
  await expect(page.getByTestId("run-filter-status")).toHaveValue("waiting");
  await expect.poll(ids).toContain(waitingRun);
  expect(await ids()).not.toContain(betaRun);

  await page.getByTestId("run-filter-status").selectOption("");
  await page.getByTestId("run-filter-workflow").selectOption(first);
  await expect(page).toHaveURL(new RegExp(`/runs\\?workflow=${first}$`));
  await expect.poll(ids).toEqual([alphaRun]);

  // A copied link opens with the same filters.
  const other = await page.context().newPage();
  await other.goto(page.url());
  await expect(other.getByTestId("run-filter-workflow")).toHaveValue(first);
  await expect.poll(() => other.getByTestId("recent-run-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-run-id")))).toEqual([alphaRun]);
});
