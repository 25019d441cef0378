/**
 * The /runs compare picker, by keyboard only: a checkbox per row picks runs (Space), the compare bar says why a
 * selection cannot be compared (one run, three runs) and keeps the unavailable Compare focusable with that reason,
 * a picked run is removed from its chip, and Compare with exactly two opens /compare for those runs (the first picked
 * is A). The workflow it makes has a unique name and is deleted at the end. A run cancelled while still queued
 * (the one embedded worker is held by another run whose model never answers) never started: the bar says so.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { startChatCompletionsServer } from "../runtime/testing/chat-completions-server";
import { createWorkflow, linearSpec, trpcMutation } from "./canvas-helpers";
import { chainSpec, registerProvider, sessionGraph, waitForStatus, type StartedRun } from "./run-view-fixtures";

const NAME = `Compare pick ${Date.now()}`;

/** Presses Tab until the focused element matches `selector` (at most `limit` presses). */
async function tabTo(page: Page, selector: string, limit = 12, key = "Tab"): Promise<void> {
  for (let press = 0; press < limit; press += 1) {
    if (await page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${selector} never got the focus after ${limit} × ${key}`);
}

test("pick two runs on /runs by keyboard and compare them; the bar says why another selection cannot be compared", async ({ page }) => {
  await page.goto("/");
  const { spec, layout } = linearSpec(NAME);
  const workflowId = await createWorkflow(page.request, NAME, spec, layout);
  const runIds: string[] = [];
  for (const input of ["first input", "second input", "third input"]) {
    const started = await trpcMutation<{ run: { id: string } }>(page.request, "runs.start", { workflowId, input });
    runIds.push(started.run.id);
  }
  for (const runId of runIds) await waitForStatus(page.request, runId, ["succeeded"]);
  const [older, middle, newest] = runIds as [string, string, string];

  await page.goto(`/runs?q=${encodeURIComponent(NAME)}`);
  const rows = page.getByTestId("recent-run-row");
  await expect(rows).toHaveCount(3);
  const message = page.getByTestId("run-compare-message");
  const compare = page.getByTestId("run-compare");
  await expect(message).toHaveText("Select two runs to compare them.");
  await expect(compare).toHaveAttribute("aria-disabled", "true");

  // Keyboard only from the search field: the first checkbox is the newest run.
  await page.getByTestId("run-filter-search").focus();
  await tabTo(page, '[data-testid="recent-run-pick"]');
  await page.keyboard.press("Space");
  await expect(rows.nth(0).getByTestId("recent-run-pick")).toBeChecked();
  await expect(message).toHaveText("Select one more run to compare with.");
  // The unavailable Compare stays reachable and is described by the reason; Enter on it goes nowhere.
  await tabTo(page, '[data-testid="run-compare"]', 8, "Shift+Tab");
  await expect(compare).toHaveAccessibleDescription("Select one more run to compare with.");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/runs\?q=/);

  // Pick the other two: three are too many.
  await tabTo(page, `[data-testid="recent-run-row"][data-run-id="${middle}"] [data-testid="recent-run-pick"]`, 12);
  await page.keyboard.press("Space");
  await tabTo(page, `[data-testid="recent-run-row"][data-run-id="${older}"] [data-testid="recent-run-pick"]`, 4);
  await page.keyboard.press("Space");
  await expect(message).toHaveText("Select exactly two runs to compare; 3 are selected.");
  await expect(page.getByTestId("run-compare-chip")).toHaveCount(3);
  await expect(compare).toHaveAttribute("aria-disabled", "true");

  // Light and dark: no serious accessibility problem in the bar and the list.
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const axe = await new AxeBuilder({ page }).include('[data-testid="runs-page"]').analyze();
    expect(axe.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical"), scheme).toEqual([]);
  }

  // Remove the middle run from its chip, by keyboard.
  const removeMiddle = page.locator(`[data-testid="run-compare-chip"][data-run-id="${middle}"] button`);
  await tabTo(page, `[data-testid="run-compare-chip"][data-run-id="${middle}"] button`, 12, "Shift+Tab");
  await expect(removeMiddle).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("run-compare-chip")).toHaveCount(2);
  await expect(page.locator(`[data-testid="recent-run-row"][data-run-id="${middle}"] [data-testid="recent-run-pick"]`)).not.toBeChecked();
  await expect(message).toHaveAttribute("data-ready", "true");
  await expect(compare).toHaveAttribute("href", `/compare?runs=${newest},${older}`);

  await tabTo(page, '[data-testid="run-compare"]', 8);
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/compare\?runs=/);
  await expect(page.getByTestId("compare-view")).toBeVisible();
  // Each run stands for its output session: A is the newest run's, B the older one's.
  const outputOf = async (runId: string) => (await sessionGraph(page.request, runId)).sessions.find((session) => session.nodeId === "agent" && session.lineage.lineage_kind === "op_session_loop")?.id;
  await expect(page.getByTestId("compare-left")).toHaveAttribute("data-session-id", (await outputOf(newest)) ?? "missing");
  await expect(page.getByTestId("compare-right")).toHaveAttribute("data-session-id", (await outputOf(older)) ?? "missing");

  await trpcMutation(page.request, "workflows.delete", { workflowId });
});

test("a run cancelled before any worker claimed it never started: the compare bar refuses it and says why", async ({ page }) => {
  // The model never answers: the studio's one embedded worker stays inside the first run until it is cancelled.
  const model = await startChatCompletionsServer({ models: ["fast-model"], script: () => ({ type: "hang" }) });
  const provider = `e2e-hang-${Date.now()}`;
  await registerProvider(page.request, provider, model);
  const name = `Never started ${Date.now()}`;
  try {
    const holding = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: chainSpec(name, provider, "fast-model", 1), input: "hold the worker" });
    await waitForStatus(page.request, holding.run.id, ["running"]);
    const queued = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: chainSpec(name, provider, "fast-model", 1), input: "never runs" });
    expect(queued.run.status).toBe("queued");
    await trpcMutation(page.request, "runs.cancel", { runId: queued.run.id });
    expect(await waitForStatus(page.request, queued.run.id, ["cancelled"])).toBe("cancelled");
    await trpcMutation(page.request, "runs.cancel", { runId: holding.run.id });

    await page.goto(`/runs?q=${encodeURIComponent(name)}`);
    const rows = page.getByTestId("recent-run-row");
    await expect(rows).toHaveCount(2);
    for (const runId of [holding.run.id, queued.run.id]) await page.locator(`[data-testid="recent-run-row"][data-run-id="${runId}"] [data-testid="recent-run-pick"]`).check();
    const reason = `Run run_…${queued.run.id.slice(-6)} never started (cancelled), so it has no session to compare.`;
    await expect(page.getByTestId("run-compare-message")).toHaveText(reason);
    const compare = page.getByTestId("run-compare");
    await expect(compare).toHaveAttribute("aria-disabled", "true");
    await expect(compare).toHaveAccessibleDescription(reason);
    await compare.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/runs\?q=/);
    await waitForStatus(page.request, holding.run.id, ["cancelled"]);
  } finally {
    await model.close();
  }
});
