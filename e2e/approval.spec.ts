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

test("the decision draft works from the keyboard: Escape goes back to the button that opened it, Ctrl+Enter sends", async ({ page }) => {
  await startRunFromHome(page, "Approval", "Draft an email to answer from the keyboard.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "waiting");
  const approval = page.getByTestId("pending-approval");
  await approval.getByTestId("respond-button").click();
  const draft = approval.getByTestId("approval-draft");
  await expect(draft).toBeFocused();
  await draft.fill("Typed, then thought better of it.");
  await page.keyboard.press("Escape");
  await expect(draft).toHaveCount(0);
  await expect(approval.getByTestId("respond-button")).toBeFocused();
  // Nothing was sent: the run still waits.
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "waiting");

  await page.keyboard.press("Tab");
  await expect(approval.getByTestId("reject-button")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(draft).toBeFocused();
  await page.keyboard.type("Rejected from the keyboard.");
  await approval.screenshot({ path: "test-results/screenshots/approval-draft-keys.png" });
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "failed");
  await expect(page.getByTestId("run-error")).toContainText("Rejected from the keyboard.");
});

test("on a phone, the graph follows the waiting step clear of the zoom controls", async ({ page }) => {
  // 390 × 667: the approval above leaves the graph pane about 140 px tall, less than the stacked controls' band.
  await page.setViewportSize({ width: 390, height: 667 });
  await startRunFromHome(page, "Approval", "Draft a short email.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "waiting");
  const waiting = page.locator('[data-testid="graph-pending"][data-status="waiting"]');
  await expect(waiting).toBeVisible();
  const boxes = async () => {
    const [pane, node, controls] = await Promise.all([page.getByTestId("session-graph").boundingBox(), waiting.boundingBox(), page.locator(".react-flow__controls").boundingBox()]);
    if (pane === null || node === null || controls === null) throw new Error("the graph, the waiting node or the controls have no box");
    return { pane, node, controls };
  };
  const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  // The view settles on the waiting step (wholly in the pane), then it must not lie under the controls.
  await expect.poll(async () => {
    const { pane, node } = await boxes();
    return node.x >= pane.x && node.y >= pane.y && node.x + node.width <= pane.x + pane.width && node.y + node.height <= pane.y + pane.height;
  }).toBe(true);
  const { node, controls } = await boxes();
  expect(overlaps(node, controls)).toBe(false);
});
