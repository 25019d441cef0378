/**
 * The workflow editor in the production build: building a workflow by drag and drop, Monaco from the app's own
 * bundle, save and reload, refused connections with their reason, problems on their nodes, undo/redo against
 * the exported spec, the stale-save conflict dialog, the revision diff, runs from the canvas (succeeded and
 * failed), imports (malformed, with problems, valid: nothing saved until Save), a stale save kept as a copy, and an
 * accessibility scan in both themes.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { canvasNode as node, createWorkflow, seedExamples, dropFromPalette, exportCanvas, linearSpec, openEditor, trpcMutation, trpcQuery, wire, workflowIdByName, type Exported } from "./canvas-helpers";

test.describe("workflow editor", () => {
  // Each test drives many canvas gestures and file exports on a machine shared with other builds.
  test.describe.configure({ timeout: 240_000 });

  // The examples are seeded only into a database that never held a workflow: visit the home page first.
  test.beforeAll(async ({ browser }) => seedExamples(browser));

  test("build Input → Agent → Output by drag and drop, type the prompt in Monaco, save, reload: same spec and layout; Monaco makes no request elsewhere", async ({ page, baseURL }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const origin = new URL(baseURL as string).origin;
    const foreign: string[] = [];
    page.on("request", (request) => {
      const url = request.url();
      if (!url.startsWith(origin) && !url.startsWith("data:") && !url.startsWith("blob:")) foreign.push(url);
    });
    const workflowId = await createWorkflow(page.request, "E2E drag and drop");
    await openEditor(page, workflowId);

    await dropFromPalette(page, "input", 140, 220);
    await dropFromPalette(page, "agent", 440, 220);
    await dropFromPalette(page, "output", 740, 220);
    await expect(page.getByTestId("canvas-node")).toHaveCount(3);
    await wire(page, "port-input-1-out-out", "port-agent-1-in-in");
    await wire(page, "port-agent-1-out-out", "port-output-1-in-in");
    await expect(page.locator(".react-flow__edge")).toHaveCount(2);

    await node(page, "agent-1").click();
    const prompt = page.getByTestId("prompt-editor");
    await expect(prompt).toHaveAttribute("data-monaco", "ready");
    await prompt.locator(".monaco-editor .view-lines").click();
    await page.keyboard.type("You are a careful assistant.");
    await expect(prompt.locator(".monaco-editor .view-lines")).toContainText("careful");
    await expect(page.getByTestId("unsaved-marker")).toBeVisible();

    // A new workflow names no provider yet: pick the offline demo one in the workflow's settings.
    await page.locator(".react-flow__pane").click({ position: { x: 400, y: 500 } });
    await page.keyboard.press("Escape");
    const settings = page.getByTestId("workflow-properties");
    await expect(settings).toBeVisible();
    await settings.getByRole("combobox", { name: /Default provider/ }).selectOption("scripted");
    await settings.getByLabel(/Default model/).fill("scripted-1");
    const before = await exportCanvas(page);
    const agent = before.spec.nodes.find((candidate) => candidate.id === "agent-1");
    expect(agent?.config.instructions).toBe("You are a careful assistant.");
    expect(before.spec.edges.map((edge) => `${edge.source}->${edge.target}`)).toEqual(["input-1->agent-1", "agent-1->output-1"]);
    expect(Object.keys(before.layout.nodes).sort()).toEqual(["agent-1", "input-1", "output-1"]);

    await expect(page.getByTestId("problems-panel")).toHaveAttribute("data-count", "0");
    await page.getByTestId("save").click();
    await expect(page.getByTestId("workflow-editor")).not.toHaveAttribute("data-revision-id", "");
    await expect(page.getByTestId("unsaved-marker")).toHaveCount(0);

    await page.reload();
    await expect(page.getByTestId("canvas-node")).toHaveCount(3);
    const after = await exportCanvas(page);
    expect(after.spec).toEqual(before.spec);
    expect(after.layout).toEqual(before.layout);
    expect(foreign, `requests to other origins: ${foreign.join(", ")}`).toEqual([]);
  });

  test("an incompatible connection is refused with its reason; problems show on their nodes and a click centres the node", async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const workflowId = await createWorkflow(page.request, "E2E refused wire");
    await openEditor(page, workflowId);
    await dropFromPalette(page, "input", 160, 120);
    await dropFromPalette(page, "tool", 160, 360);
    await dropFromPalette(page, "output", 560, 240);
    await wire(page, "port-tool-1-out-out", "port-output-1-in-in", async () => {
      await expect(page.getByTestId("connection-hint")).toContainText("'out' carries a tool but 'in' expects a session");
    });
    await expect(page.locator(".react-flow__edge")).toHaveCount(0);
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Connection refused" })).toContainText("connect it to an Agent's 'tools' port");

    // Nothing is wired: the Output is unreachable and the Input a dead end, each problem on its own node.
    await expect(node(page, "output-1")).not.toHaveAttribute("data-problems", "0");
    await expect(node(page, "input-1")).not.toHaveAttribute("data-problems", "0");
    const outputProblem = page.locator('[data-testid="problem-item"][data-node-id="output-1"][data-code="unreachable_node"]');
    await expect(outputProblem).toHaveCount(1);
    await expect(page.locator('[data-testid="problem-item"][data-node-id="input-1"][data-code="dead_end"]')).toHaveCount(1);
    await outputProblem.click();
    await expect(page.getByTestId("node-properties")).toHaveAttribute("data-node-id", "output-1");
    await expect(node(page, "output-1")).toBeInViewport();
  });

  test("undo and redo over add, move, connect and a property edit restore the exact exported spec each time", async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const workflowId = await createWorkflow(page.request, "E2E undo");
    await openEditor(page, workflowId);
    const states: Exported[] = [await exportCanvas(page)];
    await dropFromPalette(page, "input", 160, 200);
    states.push(await exportCanvas(page));
    await dropFromPalette(page, "agent", 520, 200);
    states.push(await exportCanvas(page));
    const header = await node(page, "agent-1").boundingBox();
    if (header === null) throw new Error("agent not on screen");
    await page.mouse.move(header.x + 60, header.y + 16);
    await page.mouse.down();
    await page.mouse.move(header.x + 140, header.y + 96, { steps: 10 });
    await page.mouse.up();
    const moved = await exportCanvas(page);
    expect(moved.layout.nodes["agent-1"]).not.toEqual(states[2]?.layout.nodes["agent-1"]);
    states.push(moved);
    await wire(page, "port-input-1-out-out", "port-agent-1-in-in");
    states.push(await exportCanvas(page));
    await node(page, "agent-1").click();
    await page.getByTestId("node-label-input").fill("Researcher");
    states.push(await exportCanvas(page));
    expect(states.at(-1)?.spec.nodes.find((candidate) => candidate.id === "agent-1")?.label).toBe("Researcher");

    await page.locator(".react-flow__pane").click({ position: { x: 20, y: 20 } });
    for (let index = states.length - 2; index >= 0; index--) {
      await page.getByTestId("undo").click();
      expect(await exportCanvas(page), `after undo to state ${index}`).toEqual(states[index]);
    }
    for (let index = 1; index < states.length; index++) {
      await page.keyboard.press("Control+Shift+Z");
      expect(await exportCanvas(page), `after redo to state ${index}`).toEqual(states[index]);
    }
  });

  test("a save from a second tab makes the first tab's save show the conflict dialog; the diff highlights the changed node", async ({ page, context }) => {
    const { spec, layout } = linearSpec("conflict");
    const workflowId = await createWorkflow(page.request, "E2E conflict", spec, layout);
    await openEditor(page, workflowId);
    const second = await context.newPage();
    await openEditor(second, workflowId);

    await node(second, "agent").click();
    await second.getByTestId("node-label-input").fill("Changed in tab two");
    await second.getByTestId("save").click();
    await expect(second.getByTestId("unsaved-marker")).toHaveCount(0);

    await node(page, "output").click();
    await page.getByTestId("node-label-input").fill("Changed in tab one");
    await page.keyboard.press("Control+s");
    await expect(page.getByTestId("conflict-dialog")).toBeVisible();
    await expect(page.getByTestId("conflict-dialog")).toContainText("changed since you opened it");
    await page.getByTestId("conflict-reload").click();
    await expect(page.getByTestId("conflict-dialog")).toBeHidden();
    await expect(node(page, "agent")).toContainText("Changed in tab two");

    await page.getByTestId("open-history").click();
    await expect(page.getByTestId("history-row")).toHaveCount(2);
    const picks = page.getByTestId("history-pick");
    await picks.nth(0).check();
    await picks.nth(1).check();
    await page.getByTestId("history-compare").click();
    await expect(page.getByTestId("diff-banner")).toBeVisible();
    await expect(node(page, "agent")).toHaveAttribute("data-diff", "changed");
    await expect(node(page, "input")).toHaveAttribute("data-diff", "");
    await expect(page.locator('[data-testid="diff-entry"][data-node-id="agent"]')).toContainText("Changed in tab two");
    await page.getByTestId("back-to-editing").click();
    await expect(page.getByTestId("diff-banner")).toHaveCount(0);
  });

  test("importing a malformed spec file shows the error and saves nothing", async ({ page }) => {
    const workflowId = await createWorkflow(page.request, "E2E import");
    await openEditor(page, workflowId);
    await page.getByTestId("import-file").setInputFiles({ name: "broken.json", mimeType: "application/json", buffer: Buffer.from('{"version": 1, "nodes": [') });
    await expect(page.getByTestId("import-error")).toContainText("not JSON");
    await page.getByTestId("import-dialog").getByRole("button", { name: "Close", exact: true }).last().click();
    await expect(page.getByTestId("canvas-node")).toHaveCount(0);
    await expect(page.getByTestId("unsaved-marker")).toHaveCount(0);
    const revisions = await trpcQuery<unknown[]>(page.request, "workflows.listRevisions", { workflowId, limit: 10 });
    expect(revisions).toEqual([]);

    // A workflow with problems: every problem is listed first; loaded anyway, they show on their nodes. Still nothing saved.
    const { spec, layout } = linearSpec("imported");
    const broken = { format: "rath-workflow", version: 1, spec: { ...spec, edges: spec.edges.filter((edge) => edge.id !== "e2") }, layout };
    await page.getByTestId("import-file").setInputFiles({ name: "problems.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(broken)) });
    await expect(page.getByTestId("import-problems")).toContainText("output");
    await page.getByTestId("import-anyway").click();
    await expect(page.getByTestId("canvas-node")).toHaveCount(3);
    await expect(node(page, "output")).not.toHaveAttribute("data-problems", "0");
    await expect(page.getByTestId("unsaved-marker")).toBeVisible();
    expect(await trpcQuery<unknown[]>(page.request, "workflows.listRevisions", { workflowId, limit: 10 })).toEqual([]);

    // A valid one loads at once, replaces the canvas, and becomes a revision only on Save.
    await page.getByTestId("import-file").setInputFiles({ name: "valid.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify({ format: "rath-workflow", version: 1, spec, layout })) });
    await expect(page.locator('[data-testid="problem-item"]')).toHaveCount(0);
    await expect(page.locator(".react-flow__edge")).toHaveCount(2);
    expect(await trpcQuery<unknown[]>(page.request, "workflows.listRevisions", { workflowId, limit: 10 })).toEqual([]);
    await page.getByTestId("save").click();
    await expect(page.getByTestId("unsaved-marker")).toHaveCount(0);
    const saved = await trpcQuery<{ spec: Exported["spec"] }[]>(page.request, "workflows.listRevisions", { workflowId, limit: 10 });
    expect(saved).toHaveLength(1);
    expect(saved[0]?.spec.edges.map((edge) => edge.id)).toEqual(["e1", "e2"]);
  });

  test("on a stale save, “Save mine as a copy” makes a new workflow with my version and leaves the other as it was", async ({ page, context }) => {
    const name = `E2E copy on conflict ${Date.now()}`;
    const { spec, layout } = linearSpec("copy on conflict");
    const workflowId = await createWorkflow(page.request, name, spec, layout);
    await openEditor(page, workflowId);
    const second = await context.newPage();
    await openEditor(second, workflowId);
    await node(second, "agent").click();
    await second.getByTestId("node-label-input").fill("Theirs");
    await second.getByTestId("save").click();
    await expect(second.getByTestId("unsaved-marker")).toHaveCount(0);
    await second.close();

    await node(page, "agent").click();
    await page.getByTestId("node-label-input").fill("Mine");
    await page.getByTestId("save").click();
    await expect(page.getByTestId("conflict-dialog")).toBeVisible();
    await page.getByTestId("conflict-save-copy").click();
    await expect(page).not.toHaveURL(new RegExp(`/workflows/${workflowId}$`));
    await expect(page.getByTestId("workflow-editor")).not.toHaveAttribute("data-workflow-id", workflowId);
    await expect(node(page, "agent")).toContainText("Mine");
    await expect(page.getByTestId("unsaved-marker")).toHaveCount(0);
    const workflows = await trpcQuery<{ id: string; name: string }[]>(page.request, "workflows.list", { limit: 500, offset: 0 });
    const copy = workflows.find((workflow) => workflow.name === `${name} (copy)`);
    expect(copy).toBeDefined();
    const copied = await trpcQuery<{ head: { spec: Exported["spec"] } }>(page.request, "workflows.get", { workflowId: copy?.id });
    expect(copied.head.spec.nodes.find((entry) => entry.id === "agent")?.label).toBe("Mine");
    const original = await trpcQuery<{ head: { spec: Exported["spec"] } }>(page.request, "workflows.get", { workflowId });
    expect(original.head.spec.nodes.find((entry) => entry.id === "agent")?.label).toBe("Theirs");
  });

  test("a template run from the canvas turns its nodes succeeded (its tool too, with its agent) and shows the output", async ({ page }) => {
    const workflowId = await workflowIdByName(page, "Hello agent");
    await openEditor(page, workflowId);
    // A Tool node never runs as a step: it shows the status of the agent it is attached to.
    await expect(node(page, "shell")).toHaveAttribute("data-node-type", "tool");
    const nodeIds = await page.getByTestId("canvas-node").evaluateAll((elements) => elements.map((element) => element.getAttribute("data-node-id") as string));
    expect(nodeIds.sort()).toEqual(["assistant", "input", "output", "shell"]);
    await expect(node(page, "shell")).toHaveAttribute("data-status", "");
    await page.getByTestId("run-open").click();
    await page.getByTestId("run-input-text").fill("Say hello to the canvas.");
    await page.getByTestId("run-start").click();
    const overlay = page.getByTestId("run-overlay");
    await expect(overlay).toHaveAttribute("data-status", "succeeded");
    for (const id of nodeIds) await expect(node(page, id)).toHaveAttribute("data-status", "succeeded");
    await expect(node(page, "shell").getByTestId("node-run-status")).toContainText("via assistant");
    await expect(page.getByTestId("run-overlay-output")).not.toBeEmpty();
    await expect(page.getByTestId("run-overlay-link")).toHaveAttribute("href", /\/runs\/run_/);
  });

  test("a failing run marks the failing node with its error", async ({ page }) => {
    const workflowId = await workflowIdByName(page, "Approval");
    await openEditor(page, workflowId);
    await page.getByTestId("run-open").click();
    await page.getByTestId("run-start").click();
    const overlay = page.getByTestId("run-overlay");
    await expect(overlay).toHaveAttribute("data-status", "waiting");
    const waiting = page.locator('[data-testid="canvas-node"][data-status="waiting"]');
    await expect(waiting).toHaveCount(1);
    const approvalId = (await waiting.getAttribute("data-node-id")) as string;
    const runId = (await overlay.getAttribute("data-run-id")) as string;
    const interrupts = await trpcQuery<{ id: string }[]>(page.request, "runs.pendingInterrupts", { runId });
    await trpcMutation(page.request, "runs.decideInterrupt", { interruptId: interrupts[0]?.id, decision: "reject", payload: "not this one" });
    await expect(overlay).toHaveAttribute("data-status", "failed");
    await expect(node(page, approvalId)).toHaveAttribute("data-status", "failed");
    await expect(node(page, approvalId).getByTestId("node-run-error")).not.toBeEmpty();
  });

  test("the editor passes an accessibility scan with no serious or critical violation, light and dark", async ({ page }) => {
    const workflowId = await workflowIdByName(page, "Selector loop");
    for (const scheme of ["dark", "light"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await openEditor(page, workflowId);
      await expect(page.getByTestId("canvas-node").first()).toBeVisible();
      const editor = await new AxeBuilder({ page }).analyze();
      const serious = editor.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
      expect(serious.map((violation) => `${scheme} ${violation.id}: ${violation.nodes.map((entry) => entry.target.join(" ")).slice(0, 3).join(" | ")}`)).toEqual([]);
    }
    await node(page, (await page.getByTestId("canvas-node").nth(1).getAttribute("data-node-id")) as string).click();
    await expect(page.getByTestId("prompt-editor")).toHaveAttribute("data-monaco", "ready", { timeout: 90_000 });
    const withPanel = await new AxeBuilder({ page }).analyze();
    const seriousPanel = withPanel.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
    expect(seriousPanel.map((violation) => `${violation.id}: ${violation.nodes.map((entry) => entry.target.join(" ")).slice(0, 3).join(" | ")}`)).toEqual([]);
  });
});
