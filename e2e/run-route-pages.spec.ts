/**
 * The run route's own pages on the production build: loading.tsx is what the server streams (and the browser shows)
 * while the page's server part reads the run; error.tsx when that part fails (a reference, no server details, Try
 * again that reads again, and a way back); an unknown run is a real 404 with a way back.
 */
import { expect, test } from "@playwright/test";
import { startRunFromHome } from "./helpers";
import { runDatabaseFixture } from "./run-view-fixtures";

test("loading.tsx streams first: the page's frame shows while the run is read", async ({ page, browser }) => {
  const runId = await startRunFromHome(page, "Hello agent", "Say hello.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  const url = `/runs/${runId}`;

  // The server's answer, whole: the loading frame comes before the page's content (streamed into it later).
  const streamed = await (await page.request.get(url)).text();
  const loadingAt = streamed.indexOf('data-testid="run-loading"');
  expect(loadingAt).toBeGreaterThan(0);
  expect(streamed.indexOf('data-testid="run-page"')).toBeGreaterThan(loadingAt);

  // What a browser shows while the server part is still reading: the stream up to the end of the loading frame
  // (scripts off, so nothing but that HTML is on the page).
  const waiting = await browser.newContext({ javaScriptEnabled: false, baseURL: test.info().project.use.baseURL, viewport: { width: 1280, height: 800 } });
  try {
    const early = await waiting.newPage();
    await early.route(`**${url}`, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: streamed.slice(0, streamed.indexOf("</main>", loadingAt) + "</main>".length) }));
    await early.goto(url);
    const frame = early.getByTestId("run-loading");
    await expect(frame).toBeVisible();
    await expect(frame).toHaveAttribute("aria-busy", "true");
    await expect(early.getByTestId("app-header")).toBeVisible();
    // The frame has the page's shape: the width under the header, so nothing moves sideways when the run arrives.
    expect((await frame.boundingBox())?.width).toBe(1280);
  } finally {
    await waiting.close();
  }

  await page.goto(url);
  await expect(page.getByTestId("run-page")).toHaveAttribute("data-run-id", runId);
  await expect(page.getByTestId("run-loading")).toHaveCount(0);
});

test("error.tsx: a run whose records cannot be read says so, with a reference, Try again and a way back", async ({ page }) => {
  const runId = await startRunFromHome(page, "Approval", "Draft a note.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "waiting");
  expect(runDatabaseFixture<{ changed: number }>("unreadable-interrupt.ts", runId, "break").changed).toBe(1);
  try {
    await page.goto(`/runs/${runId}`);
    const error = page.getByTestId("run-page-error");
    await expect(error).toContainText("This run could not be shown");
    // The server's reason stays in its log: the page names the entry, nothing more.
    await expect(error).toContainText(/Something went wrong on the server \(reference \w+\)/);
    await expect(error).not.toContainText("interrupt");
    await expect(page.getByTestId("run-page")).toHaveCount(0);
    // The tab still names the run: the title reads the run alone.
    await expect(page).toHaveTitle(/Approval · waiting/);

    // Once the records read again, Try again shows the run without a reload.
    expect(runDatabaseFixture<{ changed: number }>("unreadable-interrupt.ts", runId, "mend").changed).toBe(1);
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });
    await page.getByTestId("run-error-retry").click();
    await expect(page.getByTestId("run-page")).toHaveAttribute("data-run-id", runId);
    await expect(page.getByTestId("pending-approval")).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

    // And the way back.
    runDatabaseFixture("unreadable-interrupt.ts", runId, "break");
    await page.goto(`/runs/${runId}`);
    await page.getByTestId("run-error-home").click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("workflow-card").first()).toBeVisible();
  } finally {
    runDatabaseFixture("unreadable-interrupt.ts", runId, "mend");
  }
});

test("an unknown run is a helpful 404 with a way back", async ({ page }) => {
  // The route's layout looks the run up before the page streams (loading.tsx), so the status is a real 404.
  const response = await page.goto("/runs/run_doesnotexist0000");
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle(/Run not found/);
  await expect(page.getByTestId("run-not-found")).toContainText("No run with this id");
  await page.getByTestId("run-not-found-home").click();
  await expect(page).toHaveURL(/\/$/);
});
