import { expect, test } from "@playwright/test";
import { startRunFromHome } from "./helpers";

test("the approval example waits for a person; approving completes it", async ({ page }) => {
  await startRunFromHome(page, "Approval", "Draft a short email announcing version 2.");

  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "waiting");
  const approval = page.getByTestId("pending-approval");
  await expect(approval).toHaveCount(1);
  await expect(approval).toContainText("Send this email?");
  await expect(approval.getByTestId("approval-text")).toContainText("Draft a short email announcing version 2.");
  await page.screenshot({ path: "test-results/screenshots/run-approval-waiting.png", fullPage: false });

  await approval.getByTestId("approve-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  await expect(page.getByTestId("pending-approval")).toHaveCount(0);
  await expect(page.getByTestId("run-output")).toContainText("Draft a short email announcing version 2.");
  await expect(page.locator('[data-testid="graph-node"][data-node-id="drafter"]').first()).toBeVisible();
});

test("rejecting an approval fails the run with the rejection", async ({ page }) => {
  await startRunFromHome(page, "Approval", "Draft an email nobody should send.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "waiting");
  await page.getByTestId("pending-approval").getByTestId("reject-button").click();
  await page.getByTestId("approval-draft").fill("Not this one.");
  await page.getByTestId("approval-submit").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "failed");
  await expect(page.getByTestId("run-error")).toContainText("Not this one.");
});
