/**
 * The browser's Back and Forward buttons with unsaved changes in the editor: the editor's own dialog asks first.
 * Stay keeps the editor, its address and its edits (and asks again next time); Leave goes where the button
 * pointed, with the edits kept in the local draft. A clean editor goes back and forward without a question, and
 * the browser's own unload prompt never appears. The editor is reached by in-app links, as users do, so each
 * Back/Forward is a move between entries of the same document. The page's own `navigation.back()`/`forward()`
 * stand for the buttons: Playwright's `goBack` waits for a page load that a same-document move never makes, and
 * Chromium drops a second `history.forward()` right after one the page cancelled (no navigate event at all), which
 * the Navigation API's calls do not. Without the Navigation API (removed before the page loads) the guard's popstate
 * layer answers alone, and `history.back()` stands for the button.
 */
import { expect, test, type Page } from "@playwright/test";
import { canvasNode as node, createWorkflow, linearSpec, relabel, seedExamples, storedDraft } from "./canvas-helpers";

/** Relabels a node, which leaves unsaved changes. */
async function edit(page: Page, nodeId: string, label: string): Promise<void> {
  await relabel(page, nodeId, label);
  await expect(page.getByTestId("unsaved-marker")).toBeVisible();
}

/** Opens the editor from the home page's workflow list (a client-side navigation, like a user's click). */
async function openFromHome(page: Page, name: string, workflowId: string): Promise<void> {
  await page.getByTestId("workflow-search").fill(name);
  await page.getByTestId("workflow-name").filter({ hasText: name }).click();
  await expect(page).toHaveURL(new RegExp(`/workflows/${workflowId}$`));
  await expect(node(page, "agent")).toBeVisible();
}

interface Traversal {
  committed: Promise<unknown>;
  finished: Promise<unknown>;
}

/** Presses Back (or Forward): a traversal the editor may cancel, so its promises may reject; nothing waits on them. */
function traverse(page: Page, direction: "back" | "forward"): Promise<void> {
  return page.evaluate((which) => {
    const navigation = (window as unknown as { navigation: { back(): Traversal; forward(): Traversal } }).navigation;
    const result = which === "back" ? navigation.back() : navigation.forward();
    result.committed.catch(() => undefined);
    result.finished.catch(() => undefined);
  }, direction);
}
const back = (page: Page) => traverse(page, "back");
const forward = (page: Page) => traverse(page, "forward");

test.describe("back and forward with unsaved changes", () => {
  test.beforeAll(async ({ browser }) => seedExamples(browser));

  let browserPrompts: string[];
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    browserPrompts = [];
    page.on("dialog", (dialog) => {
      browserPrompts.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
  });
  test.afterEach(() => {
    expect(browserPrompts, "the browser's own prompts").toEqual([]);
  });

  test("Back asks: Stay keeps the address and the edits and asks again next time; Leave goes back with the draft kept", async ({ page }) => {
    const name = `E2E back ${test.info().repeatEachIndex}-${Date.now()}`;
    const { spec, layout } = linearSpec(name);
    const workflowId = await createWorkflow(page.request, name, spec, layout);
    const editorUrl = new RegExp(`/workflows/${workflowId}$`);
    await page.goto("/");
    await openFromHome(page, name, workflowId);
    await edit(page, "agent", "Kept on Back");

    const dialog = page.getByTestId("leave-dialog");
    await back(page);
    await expect(dialog).toBeVisible();
    await expect(page.getByTestId("leave-stay")).toBeFocused();
    await page.getByTestId("leave-stay").click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(editorUrl);
    await expect(node(page, "agent")).toContainText("Kept on Back");
    await expect(page.getByTestId("unsaved-marker")).toBeVisible();

    // Asked again; Escape is Stay too.
    await back(page);
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(editorUrl);
    await expect(node(page, "agent")).toContainText("Kept on Back");

    // Leave, from the keyboard: Shift+Tab from Stay reaches Leave.
    await back(page);
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Shift+Tab");
    await expect(page.getByTestId("leave-confirm")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("workflow-search")).toBeVisible();
    await expect(page.getByTestId("workflow-editor")).toHaveCount(0);
    expect(await storedDraft(page, workflowId)).toMatchObject({ spec: { nodes: expect.arrayContaining([expect.objectContaining({ id: "agent", label: "Kept on Back" })]) } });
  });

  test("a clean editor goes back and forward without asking; Forward with unsaved changes asks, and Leave goes forward", async ({ page }) => {
    const name = `E2E forward ${test.info().repeatEachIndex}-${Date.now()}`;
    const { spec, layout } = linearSpec(name);
    const workflowId = await createWorkflow(page.request, name, spec, layout);
    const editorUrl = new RegExp(`/workflows/${workflowId}$`);
    await page.goto("/");
    await openFromHome(page, name, workflowId);

    // Clean: Back and Forward just go.
    await back(page);
    await expect(page.getByTestId("workflow-search")).toBeVisible();
    await expect(page.getByTestId("workflow-editor")).toHaveCount(0);
    await forward(page);
    await expect(page).toHaveURL(editorUrl);
    await expect(node(page, "agent")).toBeVisible();

    // Settings, then Back to the editor: Forward now leads to Settings.
    await page.getByTestId("nav-settings").click();
    await expect(page).toHaveURL(/\/settings$/);
    await back(page);
    await expect(page).toHaveURL(editorUrl);
    await edit(page, "agent", "Kept on Forward");

    const dialog = page.getByTestId("leave-dialog");
    await forward(page);
    await expect(dialog).toBeVisible();
    await page.getByTestId("leave-stay").click();
    await expect(page).toHaveURL(editorUrl);
    await expect(node(page, "agent")).toContainText("Kept on Forward");

    await forward(page);
    await expect(dialog).toBeVisible();
    await page.getByTestId("leave-confirm").click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByTestId("workflow-editor")).toHaveCount(0);

    // Back to the editor: the draft brings the edit back, and Back from there asks again.
    await back(page);
    await expect(page).toHaveURL(editorUrl);
    await expect(node(page, "agent")).toContainText("Kept on Forward");
    await back(page);
    await expect(dialog).toBeVisible();
    await page.getByTestId("leave-stay").click();
    await expect(page).toHaveURL(editorUrl);
  });

  test("without the Navigation API the popstate layer asks: Stay keeps the address and the edits, and Leave goes back", async ({ page }) => {
    await page.addInitScript(() => Object.defineProperty(window, "navigation", { value: undefined, configurable: true }));
    const name = `E2E popstate ${test.info().repeatEachIndex}-${Date.now()}`;
    const { spec, layout } = linearSpec(name);
    const workflowId = await createWorkflow(page.request, name, spec, layout);
    const editorUrl = new RegExp(`/workflows/${workflowId}$`);
    await page.goto("/");
    expect(await page.evaluate(() => (window as { navigation?: unknown }).navigation)).toBeUndefined();
    await openFromHome(page, name, workflowId);
    await edit(page, "agent", "Kept on popstate");

    const dialog = page.getByTestId("leave-dialog");
    const historyBack = () => page.evaluate(() => window.history.back());
    await historyBack();
    await expect(dialog).toBeVisible();
    await page.getByTestId("leave-stay").click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(editorUrl);
    await expect(node(page, "agent")).toContainText("Kept on popstate");
    await expect(page.getByTestId("unsaved-marker")).toBeVisible();
    await expect(page.getByTestId("workflow-search")).toHaveCount(0);

    // Asked again; Leave goes back to the home page, the edit kept in the draft.
    await historyBack();
    await expect(dialog).toBeVisible();
    await page.getByTestId("leave-confirm").click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("workflow-search")).toBeVisible();
    await expect(page.getByTestId("workflow-editor")).toHaveCount(0);
    expect(await storedDraft(page, workflowId)).toMatchObject({ spec: { nodes: expect.arrayContaining([expect.objectContaining({ id: "agent", label: "Kept on popstate" })]) } });
  });
});
