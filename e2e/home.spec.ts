/**
 * The home page: seeded templates, workflows created from a template, renamed inline, duplicated, deleted with a
 * confirm dialog, searched; a malformed spec file refused with its problems and nothing saved; the provider shown
 * once; recent runs paged; an accessibility scan.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { exampleNames } from "./helpers";

async function workflowCount(page: Page): Promise<number> {
  const response = await page.request.get("/api/trpc/workflows.list?input=" + encodeURIComponent(JSON.stringify({ limit: 500 })));
  return ((await response.json()) as { result: { data: unknown[] } }).result.data.length;
}

function card(page: Page, name: string) {
  return page.locator(`[data-testid="workflow-card"][data-workflow-name="${name}"]`);
}

test("the home page lists the seeded templates and shows the demo provider once", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveTitle("Workflows · Rath Studio");
  await expect(page.getByRole("heading", { name: "Rath Studio" })).toBeVisible();
  const names = exampleNames();
  expect(names.length).toBeGreaterThanOrEqual(8);
  for (const name of names) {
    await expect(card(page, name).getByTestId("workflow-name")).toHaveText(name);
    await expect(card(page, name).getByTestId("workflow-revisions")).toHaveText("1 revision");
  }
  // Other specs may have added workflows of their own; each seeded template is listed exactly once.
  for (const name of names) await expect(card(page, name)).toHaveCount(1);
  await expect(page.getByTestId("demo-provider-label")).toHaveCount(1);
  await expect(page.getByTestId("provider-card").getByTestId("demo-provider-label")).toHaveText("Scripted demo provider - no API key");
  await expect(card(page, "Hello agent").getByTestId("workflow-name")).toHaveAttribute("href", /^\/workflows\/wf_/);
});

test("reloading the home page does not seed twice", async ({ page }) => {
  await page.goto("/");
  await page.reload();
  for (const name of exampleNames()) await expect(card(page, name)).toHaveCount(1);
});

test("create from a template, rename inline, duplicate, search and delete", async ({ page }) => {
  await page.goto("/");
  const before = await workflowCount(page);
  await page.getByTestId("new-from-template").click();
  const gallery = page.getByTestId("template-gallery");
  await expect(gallery.getByTestId("template-option")).toHaveCount(exampleNames().length);
  const triage = gallery.locator('[data-template-slug="support-triage"]');
  await expect(triage).toContainText("Support triage loop");
  await expect(triage.locator('[data-node-type="selector"]')).toBeVisible();
  await triage.click();
  await expect(gallery).toBeHidden();
  // By exact name: other specs on this server create workflows whose names contain it ("E2E types Support triage loop").
  await expect(card(page, "Support triage loop")).toHaveCount(2);
  expect(await workflowCount(page)).toBe(before + 1);

  // Rename the newest copy (listed first) inline, from the keyboard.
  const newest = page.getByTestId("workflow-card").first();
  await expect(newest).toHaveAttribute("data-workflow-name", "Support triage loop");
  await newest.getByTestId("workflow-rename").click();
  const input = newest.getByTestId("rename-input");
  await expect(input).toBeFocused();
  await input.fill("Refund desk");
  await input.press("Enter");
  await expect(card(page, "Refund desk")).toHaveCount(1);
  // Escape cancels a rename.
  await card(page, "Refund desk").getByTestId("workflow-rename").click();
  await card(page, "Refund desk").getByTestId("rename-input").fill("Not this");
  await card(page, "Refund desk").getByTestId("rename-input").press("Escape");
  await expect(card(page, "Not this")).toHaveCount(0);

  await card(page, "Refund desk").getByTestId("workflow-duplicate").click();
  await expect(card(page, "Refund desk (copy)")).toHaveCount(1);
  await expect(card(page, "Refund desk (copy)").getByTestId("workflow-revisions")).toHaveText("1 revision");

  await page.keyboard.press("/");
  await expect(page.getByTestId("workflow-search")).toBeFocused();
  await page.keyboard.type("refund desk");
  await expect(page.getByTestId("workflow-card")).toHaveCount(2);
  await page.getByTestId("workflow-search").fill("no such workflow anywhere");
  await expect(page.getByTestId("workflows-no-match")).toBeVisible();
  await page.getByTestId("workflow-search").fill("refund");

  await card(page, "Refund desk (copy)").getByTestId("workflow-delete").click();
  const dialog = page.locator("[data-testid=delete-dialog][open]");
  await expect(dialog).toContainText("Delete “Refund desk (copy)”?");
  await dialog.getByTestId("delete-cancel").click();
  await expect(card(page, "Refund desk (copy)")).toHaveCount(1);
  await card(page, "Refund desk (copy)").getByTestId("workflow-delete").click();
  await dialog.getByTestId("delete-confirm").click();
  await expect(card(page, "Refund desk (copy)")).toHaveCount(0);
  expect(await workflowCount(page)).toBe(before + 1);
  await page.reload();
  await expect(card(page, "Refund desk")).toHaveCount(1);
  await expect(card(page, "Refund desk (copy)")).toHaveCount(0);
});

test("importing a malformed spec file shows where it is wrong and saves nothing", async ({ page }) => {
  await page.goto("/");
  const before = await workflowCount(page);
  await page.getByTestId("import-file").setInputFiles({ name: "broken.json", mimeType: "application/json", buffer: Buffer.from('{\n  "version": 1,\n  "name": "x",,\n}') });
  const problems = page.getByTestId("import-problems");
  await expect(problems).toContainText("broken.json has 1 problem");
  await expect(problems.getByTestId("import-problem-where")).toHaveText("line 3, column 15");
  await problems.getByRole("button", { name: "Close" }).first().click();

  const invalid = { version: 1, name: "Bad", nodes: [{ id: "input", type: "input", config: {} }, { id: "a", type: "agent", config: { name: "a" } }], edges: [] };
  await page.getByTestId("import-file").setInputFiles({ name: "invalid.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(invalid)) });
  await expect(problems).toBeVisible();
  await expect(problems.getByTestId("import-problem-where").filter({ hasText: "node a" }).first()).toBeVisible();
  await page.keyboard.press("Escape");
  expect(await workflowCount(page)).toBe(before);

  const valid = { version: 1, name: "Imported echo", settings: { defaultProvider: "scripted", defaultModel: "scripted-1" }, nodes: [{ id: "input", type: "input", config: {} }, { id: "output", type: "output", config: {} }], edges: [{ id: "e", source: "input", sourcePort: "out", target: "output", targetPort: "in" }] };
  await page.getByTestId("import-file").setInputFiles({ name: "ok.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(valid)) });
  await expect(card(page, "Imported echo")).toHaveCount(1);
  expect(await workflowCount(page)).toBe(before + 1);
});

test("recent runs page by cursor and link to their run", async ({ page }) => {
  // Twelve quick runs of the blank-like imported workflow through the API, so the list needs two pages of ten.
  await page.goto("/");
  const created = await page.request.post("/api/trpc/workflows.create", {
    data: { name: "Pager", spec: { version: 1, name: "Pager", nodes: [{ id: "input", type: "input", config: {} }, { id: "output", type: "output", config: {} }], edges: [{ id: "e", source: "input", sourcePort: "out", target: "output", targetPort: "in" }] } },
  });
  const workflowId = ((await created.json()) as { result: { data: { workflow: { id: string } } } }).result.data.workflow.id;
  for (let index = 0; index < 12; index++) {
    const started = await page.request.post("/api/trpc/runs.start", { data: { workflowId, input: `run ${index}` } });
    expect(started.ok()).toBe(true);
  }
  await page.reload();
  const rows = page.getByTestId("recent-run-row");
  await expect(rows).toHaveCount(10);
  const firstPageIds = await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute("data-run-id")));
  await page.getByTestId("runs-older").click();
  await expect(page.getByTestId("runs-page")).toHaveText("Page 2");
  await expect(rows.first()).not.toHaveAttribute("data-run-id", firstPageIds[0] as string);
  const secondPageIds = await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute("data-run-id")));
  expect(secondPageIds.filter((id) => firstPageIds.includes(id))).toEqual([]);
  await page.getByTestId("runs-newer").click();
  await expect(rows.first()).toHaveAttribute("data-run-id", firstPageIds[0] as string);
  await expect(rows.first().getByTestId("recent-run-link")).toHaveAttribute("href", `/runs/${firstPageIds[0]}`);
});

test("the home page at 390 px does not scroll sideways", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto("/");
  await expect(page.getByTestId("workflow-card").first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

for (const path of ["/", "/runs"]) {
  test(`${path} has no serious or critical accessibility violation (light and dark)`, async ({ page }) => {
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(path);
      await expect(page.locator("main")).toBeVisible();
      await expect(page.getByText("Loading runs…")).toHaveCount(0);
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
      expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
    }
  });
}

test("an unknown run id is a 404 page", async ({ page }) => {
  // The run route's layout looks the run up before the page streams, so the status is a real 404.
  const response = await page.goto("/runs/run_doesnotexist");
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId("run-not-found")).toContainText("No run with this id");
  await expect(page.getByTestId("run-not-found-home")).toHaveAttribute("href", "/");
});
