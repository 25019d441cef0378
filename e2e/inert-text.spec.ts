import { expect, test } from "@playwright/test";
import { startRunFromHome } from "./helpers";

const MARKUP = "<img src=x onerror=alert(1)>";

test("markup in the input and in model output is shown as text, never as HTML", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await startRunFromHome(page, "Hello agent", MARKUP);

  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  // The scripted model repeats the input, so the markup is in model output too.
  await expect(page.getByTestId("run-output")).toContainText(`You said: "${MARKUP}"`);
  await expect(page.getByTestId("chunk-list").locator('[data-kind="user"]').getByTestId("chunk-text").first()).toHaveText(MARKUP);
  await expect(page.getByTestId("chunk-list").locator('[data-kind="assistant"]').getByTestId("chunk-text").last()).toContainText(MARKUP);
  await expect(page.locator("img")).toHaveCount(0);

  await page.goto("/");
  await expect(page.getByTestId("recent-run-row").first()).toBeVisible();
  await expect(page.locator("img")).toHaveCount(0);
  expect(dialogs).toEqual([]);
});
