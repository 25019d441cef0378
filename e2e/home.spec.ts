import { expect, test } from "@playwright/test";
import { exampleNames } from "./helpers";

test("the home page lists the seeded example workflows and labels the scripted provider", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Rath Studio" })).toBeVisible();
  const names = exampleNames();
  expect(names.length).toBeGreaterThanOrEqual(4);
  for (const name of names) {
    const card = page.locator(`[data-testid="workflow-card"][data-workflow-name="${name}"]`);
    await expect(card.getByTestId("workflow-name")).toHaveText(name);
    await expect(card.getByTestId("workflow-revisions")).toHaveText("1 revision");
    await expect(card.getByTestId("demo-provider-label")).toHaveText("Scripted demo provider - no API key");
  }
  await expect(page.getByTestId("workflow-card")).toHaveCount(names.length);
  await expect(page.getByTestId("demo-provider-label").first()).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/home.png", fullPage: true });
});

test("reloading the home page does not seed twice", async ({ page }) => {
  await page.goto("/");
  await page.reload();
  await expect(page.getByTestId("workflow-card")).toHaveCount(exampleNames().length);
});

test("an unknown run id is a 404 page", async ({ page }) => {
  const response = await page.goto("/runs/run_doesnotexist");
  expect(response?.status()).toBe(404);
});
