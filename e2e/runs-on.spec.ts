/**
 * "Runs on" in the New blank workflow and New from template dialogs: the scripted demo provider by default, the
 * providers from Settings to pick from (one without a model cannot be picked), and the choice saved as the new
 * workflow's default provider and model. The provider settings made here are deleted again at the end.
 */
import { expect, test, type Page } from "@playwright/test";
import { trpcMutation, trpcQuery } from "./canvas-helpers";

interface WorkflowDetail {
  workflow: { id: string; name: string };
  head: { spec: { settings: Record<string, unknown> } } | null;
}

async function createdWorkflow(page: Page, name: string): Promise<WorkflowDetail> {
  const card = page.locator(`[data-testid="workflow-card"][data-workflow-name="${name}"]`);
  await expect(card).toHaveCount(1);
  const list = await trpcQuery<{ id: string; name: string }[]>(page.request, "workflows.list", { limit: 500, offset: 0 });
  const found = list.filter((workflow) => workflow.name === name);
  expect(found).toHaveLength(1);
  return trpcQuery<WorkflowDetail>(page.request, "workflows.get", { workflowId: found[0]?.id });
}

test("New blank and New from template run on the demo provider by default, or on a provider picked from Settings", async ({ page }) => {
  await page.goto("/");
  await trpcMutation(page.request, "settings.providers.upsert", { name: "local-llm", kind: "openai", baseUrl: "http://127.0.0.1:9/v1", model: "llama3.2" });
  await trpcMutation(page.request, "settings.providers.upsert", { name: "modelless", kind: "openai", baseUrl: "http://127.0.0.1:9/v1" });
  try {
    await page.reload();
    await page.getByTestId("new-workflow").click();
    const dialog = page.getByTestId("new-workflow-dialog");
    const picker = dialog.getByTestId("runs-on");
    await expect(picker).toHaveValue("scripted");
    // Other specs on this studio may have saved providers of their own: the demo comes first, ours are listed.
    await expect(picker.locator("option").first()).toHaveText("Scripted demo provider (offline)");
    await expect(picker.locator('option[value="local-llm"]')).toHaveText("local-llm · openai · llama3.2");
    await expect(picker.locator('option[value="modelless"]')).toHaveText("modelless · openai · no model set");
    await expect(picker.locator('option[value="modelless"]')).toBeDisabled();
    await dialog.getByTestId("new-workflow-name").fill("Runs on the demo");
    await dialog.getByTestId("new-workflow-create").click();
    await expect(dialog).toBeHidden();
    expect((await createdWorkflow(page, "Runs on the demo")).head?.spec.settings).toEqual({ defaultProvider: "scripted", defaultModel: "scripted-1" });

    await page.getByTestId("new-workflow").click();
    await dialog.getByTestId("new-workflow-name").fill("Runs on local");
    await dialog.getByLabel("Runs on").selectOption("local-llm");
    await dialog.getByTestId("new-workflow-create").click();
    await expect(dialog).toBeHidden();
    expect((await createdWorkflow(page, "Runs on local")).head?.spec.settings).toEqual({ defaultProvider: "local-llm", defaultModel: "llama3.2" });

    await page.getByTestId("new-from-template").click();
    const gallery = page.getByTestId("template-gallery");
    await expect(gallery.getByTestId("runs-on")).toHaveValue("scripted");
    await gallery.getByLabel("Runs on").selectOption("local-llm");
    await gallery.locator('[data-testid="template-option"][data-template-slug="hello-agent"]').click();
    await expect(gallery).toBeHidden();
    const list = await trpcQuery<{ id: string; name: string }[]>(page.request, "workflows.list", { limit: 500, offset: 0 });
    const details = await Promise.all(list.filter((workflow) => workflow.name === "Hello agent").map((workflow) => trpcQuery<WorkflowDetail>(page.request, "workflows.get", { workflowId: workflow.id })));
    const onLocal = details.filter((detail) => detail.head?.spec.settings.defaultProvider === "local-llm");
    expect(onLocal.map((detail) => detail.head?.spec.settings.defaultModel)).toEqual(["llama3.2"]);
    expect(details.length - onLocal.length).toBeGreaterThanOrEqual(1);
    // The copy made from the template would make "Hello agent" ambiguous for the specs after this one.
    for (const detail of onLocal) await trpcMutation(page.request, "workflows.delete", { workflowId: detail.workflow.id });
  } finally {
    await trpcMutation(page.request, "settings.providers.delete", { name: "local-llm" });
    await trpcMutation(page.request, "settings.providers.delete", { name: "modelless" });
  }
});

test("templates.create refuses a provider that is not configured, by name, and creates nothing", async ({ page }) => {
  await page.goto("/");
  const before = await trpcQuery<unknown[]>(page.request, "workflows.list", { limit: 500, offset: 0 });
  const response = await page.request.post("/api/trpc/templates.create", { data: { slug: "hello-agent", provider: "nowhere" } });
  expect(response.status()).toBe(400);
  const body = (await response.json()) as { error: { message: string; data: { code: string } } };
  expect(body.error.data.code).toBe("invalid_config");
  expect(body.error.message).toBe("provider 'nowhere' is not configured: add it in Settings → Providers, or pick the scripted demo provider");
  expect(await trpcQuery<unknown[]>(page.request, "workflows.list", { limit: 500, offset: 0 })).toHaveLength(before.length);
});
