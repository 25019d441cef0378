/**
 * /settings: an OpenAI-compatible provider pointing at a Chat Completions wire-protocol server started by this
 * test; "Test connection" shows the server's answer (and a provider error when the key is refused); the key never
 * appears in any response the browser receives (the editor's provider picker lists it by name); base URLs other than http(s) are refused; model prices are
 * added, refused when not numbers, and removed; an accessibility scan.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { startChatCompletionsServer, type ChatCompletionsServer } from "../runtime/testing/chat-completions-server";

const GOOD_KEY = `sk-e2e-good-${Date.now()}-abcdefgh`;
const BAD_KEY = `sk-e2e-bad-${Date.now()}-abcdefgh`;
let wire: ChatCompletionsServer;

test.beforeAll(async () => {
  wire = await startChatCompletionsServer({
    script: (request) =>
      request.headers.authorization === `Bearer ${GOOD_KEY}`
        ? { type: "completion", content: "Hello from the wire server: connection works." }
        : { type: "error", status: 401, message: "Incorrect API key provided", errorType: "invalid_request_error", code: "invalid_api_key" },
    models: ["wire-model"],
  });
});

test.afterAll(async () => {
  await wire.close();
});

test("save an OpenAI-compatible provider, test the connection, and never send the key to the browser", async ({ page }) => {
  const bodies: string[] = [];
  page.on("response", async (response) => {
    if (!response.url().startsWith("http://127.0.0.1")) return;
    try {
      bodies.push(await response.text());
    } catch {
      // redirects and aborted requests have no body
    }
  });
  await page.goto("/settings");
  await expect(page).toHaveTitle("Settings · Rath Studio");
  await expect(page.locator('[data-testid="provider-row"][data-provider-name="scripted"]')).toBeVisible();

  await page.getByTestId("provider-add").click();
  const form = page.getByTestId("provider-form");
  await form.getByTestId("provider-name").fill("local-wire");
  await form.getByTestId("provider-baseUrl").fill("ftp://127.0.0.1/v1");
  await form.getByTestId("provider-save").click();
  await expect(form.getByText("Only http:// and https:// base URLs are allowed; found ftp://.")).toBeVisible();
  await form.getByTestId("provider-baseUrl").fill(wire.baseURL);
  await form.getByTestId("provider-model").fill("wire-model");
  await form.getByTestId("provider-apiKey").fill(GOOD_KEY);
  await form.getByTestId("provider-save").click();
  await expect(page.getByTestId("provider-dialog")).toBeHidden();

  const row = page.locator('[data-testid="provider-row"][data-provider-name="local-wire"]');
  await expect(row.getByTestId("provider-key-status")).toHaveText("key set");
  await expect(row.getByTestId("provider-base-url")).toHaveText(wire.baseURL);
  const before = wire.completionRequests().length;
  await row.getByTestId("provider-test").click();
  await expect(row.getByTestId("provider-test-result")).toHaveAttribute("data-ok", "true");
  await expect(row.getByTestId("provider-test-answer")).toHaveText("Hello from the wire server: connection works.");
  expect(wire.completionRequests().length - before).toBe(1);
  expect(wire.completionRequests().at(-1)?.headers.authorization).toBe(`Bearer ${GOOD_KEY}`);

  // Replace the key with one the server refuses: the provider's error is shown.
  await row.getByTestId("provider-edit").click();
  await expect(page.getByTestId("provider-apiKey")).toHaveValue("");
  await page.getByTestId("provider-apiKey").fill(BAD_KEY);
  await page.getByTestId("provider-save").click();
  await expect(page.getByTestId("provider-dialog")).toBeHidden();
  await row.getByTestId("provider-test").click();
  await expect(row.getByTestId("provider-test-result")).toHaveAttribute("data-ok", "false");
  await expect(row.getByTestId("provider-test-error")).toContainText("Incorrect API key provided");

  await page.reload();
  await expect(page.locator('[data-testid="provider-row"][data-provider-name="local-wire"]').getByTestId("provider-key-status")).toHaveText("key set");
  // The editor's provider picker is fed by these settings (by name; the key still never travels).
  const created = await page.request.post("/api/trpc/workflows.create", { data: { name: `E2E provider picker ${Date.now()}` } });
  const workflowId = ((await created.json()) as { result: { data: { workflow: { id: string } } } }).result.data.workflow.id;
  await page.goto(`/workflows/${workflowId}`);
  const picker = page.getByTestId("workflow-properties").getByRole("combobox", { name: /Default provider/ });
  await expect(picker.locator('option[value="local-wire"]')).toHaveCount(1);
  await picker.selectOption("local-wire");
  await expect(picker).toHaveValue("local-wire");

  const everything = bodies.join("\n");
  expect(everything).toContain("local-wire");
  expect(everything).not.toContain(GOOD_KEY);
  expect(everything).not.toContain(BAD_KEY);
  expect(await page.content()).not.toContain(BAD_KEY);
});

test("the scripted demo provider answers Test connection offline", async ({ page }) => {
  await page.goto("/settings");
  const row = page.locator('[data-testid="provider-row"][data-provider-name="scripted"]');
  await row.getByTestId("provider-test").click();
  await expect(row.getByTestId("provider-test-result")).toHaveAttribute("data-ok", "true");
  await expect(row.getByTestId("provider-test-answer")).toContainText("(scripted demo)");
});

test("model prices: add, refuse a price that is not a number, remove", async ({ page }) => {
  await page.goto("/settings");
  const add = page.getByTestId("price-new");
  await add.getByTestId("price-model").fill("wire-model");
  await add.getByTestId("price-input").fill("abc");
  await add.getByTestId("price-output").fill("0.6");
  await add.getByTestId("price-add").click();
  await expect(add.getByTestId("price-error")).toHaveText("Input price: “abc” is not a non-negative number");
  await expect(page.getByTestId("price-row")).toHaveCount(0);
  await add.getByTestId("price-input").fill("0.15");
  await add.getByTestId("price-add").click();
  const row = page.locator('[data-testid="price-row"][data-model="wire-model"]');
  await expect(row.getByTestId("price-input")).toHaveValue("0.15");
  await expect(row.getByTestId("price-output")).toHaveValue("0.6");
  await page.reload();
  await expect(row.getByTestId("price-input")).toHaveValue("0.15");
  await row.getByTestId("price-output").fill("0.75");
  await row.getByTestId("price-save").click();
  await page.reload();
  await expect(row.getByTestId("price-output")).toHaveValue("0.75");
  await row.getByTestId("price-delete").click();
  await expect(row).toHaveCount(0);
});

test("/settings has no serious or critical accessibility violation (light and dark)", async ({ page }) => {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/settings");
    await expect(page.getByText("Loading providers…")).toHaveCount(0);
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
    expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
  }
});
