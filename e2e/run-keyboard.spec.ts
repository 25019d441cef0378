/**
 * The run page by keyboard: arriving on a live run (Enter on a run in /runs), the Tabs that follow walk the top bar
 * once and then go into the page; and the run controls — Cancel on a running run, then Retry, which opens the new
 * run — work from the keyboard.
 */
import { expect, test } from "@playwright/test";
import { chainSpec, MODELS, waitForStatus, scriptedProviderForSpec, trpcMutation, trpcQuery, type StartedRun } from "./run-view-fixtures";

const PROVIDER = scriptedProviderForSpec("e2e-keyboard");

/** A name for the focused element: its test id or accessible text, and whether it sits in the top bar. */
const FOCUSED = `(() => {
  const element = document.activeElement;
  if (element === null || element === document.body) return "body";
  const where = element.closest("header.sticky") !== null ? "top" : element.closest('[data-testid="run-page"]') !== null ? "page" : "other";
  const name = element.getAttribute("data-testid") ?? element.getAttribute("aria-label") ?? (element.textContent ?? "").trim().slice(0, 40);
  return where + ":" + element.tagName.toLowerCase() + ":" + name;
})()`;

test("after Enter on a running run in /runs, Tab walks the top bar once, then the run page", async ({ page }) => {
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: chainSpec("Keyboard arrival", PROVIDER, MODELS.slow, 6), input: "Go." });
  const runId = started.run.id;
  await page.goto("/runs");
  const link = page.locator(`[data-testid="recent-run-row"][data-run-id="${runId}"] [data-testid="recent-run-link"]`);
  await link.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("run-page")).toHaveAttribute("data-run-id", runId);
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-state", /live|ended/);

  const walked: string[] = [];
  for (let press = 0; press < 24; press += 1) {
    await page.keyboard.press("Tab");
    walked.push(await page.evaluate<string>(FOCUSED));
    if (walked[walked.length - 1]?.startsWith("page:") === true && walked.filter((entry) => entry.startsWith("page:")).length >= 3) break;
  }
  const top = walked.filter((entry) => entry.startsWith("top:"));
  // Each element of the top bar is focused at most once (Chromium goes on from where the followed link was, so the
  // walk may start in the page), and the walk reaches the run page's own controls.
  expect(new Set(top).size, walked.join("\n")).toBe(top.length);
  expect(walked.filter((entry) => entry.startsWith("page:")).length, walked.join("\n")).toBeGreaterThanOrEqual(3);
  // The top bar comes first, then the page: never back to the top bar once inside the page.
  const firstPage = walked.findIndex((entry) => entry.startsWith("page:"));
  expect(walked.slice(firstPage).some((entry) => entry.startsWith("top:")), walked.join("\n")).toBe(false);
});

test("Cancel stops a running run from the page, and Retry starts a new run of the same revision and input and opens it", async ({ page }) => {
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: chainSpec("Cancel then retry", PROVIDER, MODELS.blocker, 3), input: "Cancel me." });
  const runId = started.run.id;
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", /queued|running/);
  await page.getByTestId("cancel-button").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "cancelled", { timeout: 60_000 });
  const retry = page.getByTestId("retry-button");
  await expect(retry).toHaveText("Retry");
  await retry.focus();
  await page.keyboard.press("Enter");
  await page.waitForURL((url) => /\/runs\/run_[a-z0-9]+$/.test(url.pathname) && !url.pathname.endsWith(runId));
  const newId = (await page.getByTestId("run-page").getAttribute("data-run-id")) as string;
  expect(newId).not.toBe(runId);
  const [before, after] = await Promise.all([trpcQuery<{ run: { revisionId: string; input: unknown } }>(page.request, "runs.get", { runId }), trpcQuery<{ run: { revisionId: string; input: unknown } }>(page.request, "runs.get", { runId: newId })]);
  expect(after.run.revisionId).toBe(before.run.revisionId);
  expect(after.run.input).toEqual(before.run.input);
  // The new run is not left behind on the one embedded worker.
  await trpcMutation(page.request, "runs.cancel", { runId: newId });
});

test("Enter on a chunk row selects it and keeps the focus; Escape in the list or the inspector clears it, keeping the session and the focus on the row", async ({ page }) => {
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: chainSpec("Escape clears", PROVIDER, MODELS.fast, 2), input: "Go." });
  const runId = started.run.id;
  await waitForStatus(page.request, runId, ["succeeded"]);
  await page.goto(`/runs/${runId}`);
  const row = page.getByTestId("chunk-list").getByTestId("chunk-select").first();
  await row.focus();
  await page.keyboard.press("Enter");
  const inspector = page.getByTestId("chunk-inspector");
  await expect(inspector).toHaveAttribute("data-index", /^\d+$/);
  const index = (await inspector.getAttribute("data-index")) as string;
  await expect(page).toHaveURL(new RegExp(`[?&]chunk=${index}(&|$)`));
  // The row keeps the focus: choosing a chunk of the session shown by default does not remount the list.
  await expect(row).toBeFocused();
  const sessionId = new URL(page.url()).searchParams.get("session");
  expect(sessionId).not.toBeNull();

  // Escape on the row: no chunk selected, the session stays (in the URL too), the focus stays on the row.
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("inspector-empty")).toBeVisible();
  await expect(page).not.toHaveURL(/[?&]chunk=/);
  expect(new URL(page.url()).searchParams.get("session")).toBe(sessionId);
  await expect(row).toBeFocused();

  // Escape from inside the inspector: cleared too, and the focus goes back to the chunk's row.
  await page.keyboard.press("Enter");
  await expect(inspector).toHaveAttribute("data-index", index);
  const inInspector = page.locator("#run-inspector-panel").getByRole("button").first();
  await inInspector.focus();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("inspector-empty")).toBeVisible();
  await expect(page).not.toHaveURL(/[?&]chunk=/);
  await expect(row).toBeFocused();
});
