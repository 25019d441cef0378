/**
 * Editing the canvas in the production build: the local draft after a crash and a reload, the leave-page guard,
 * a revision opened read-only and restored as a new revision, copy/paste of nodes between two workflows through
 * the system clipboard (spec JSON), box and Shift multi-select with duplicate and delete, the command palette,
 * the `?` shortcuts dialog, auto-layout undone, a Selector's candidates and their descriptions, and Monaco flagging
 * an invalid JSON schema and typing a tool's code.
 */
import { expect, test, type Page } from "@playwright/test";
import { canvasNode as node, createWorkflow, exportCanvas, seedExamples, linearSpec, openEditor, relabel, storedDraft, trpcQuery, workflowIdByName, type Exported } from "./canvas-helpers";

interface RevisionRow {
  id: string;
  number: number;
  message: string;
  specSha256: string;
  spec: Exported["spec"];
}

/** Clicks the empty pane (top-left corner of the canvas), so keys go to the canvas and nothing is selected. */
async function focusPane(page: Page): Promise<void> {
  await page.locator(".react-flow__pane").click({ position: { x: 12, y: 12 } });
}

function centre(box: { x: number; y: number; width: number; height: number }): { x: number; y: number } {
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

test.describe("editing the canvas", () => {
  test.describe.configure({ timeout: 180_000 });
  test.beforeAll(async ({ browser }) => seedExamples(browser));
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  test("a crashed tab's unsaved edits come back from the local draft, after a reload too; saving clears the draft", async ({ page, context }) => {
    const { spec, layout } = linearSpec("draft");
    const workflowId = await createWorkflow(page.request, "E2E draft", spec, layout);
    await openEditor(page, workflowId);
    expect(await storedDraft(page, workflowId)).toBeNull();
    await relabel(page, "agent", "Unsaved label");
    await expect(page.getByTestId("unsaved-marker")).toBeVisible();
    await expect.poll(() => storedDraft(page, workflowId)).toMatchObject({ version: 1, spec: { nodes: expect.arrayContaining([expect.objectContaining({ id: "agent", label: "Unsaved label" })]) } });
    const edited = await exportCanvas(page);

    // The tab dies without any unload handler running.
    await page.close();
    const reopened = await context.newPage();
    await reopened.setViewportSize({ width: 1440, height: 900 });
    await openEditor(reopened, workflowId);
    await expect(reopened.locator("[data-sonner-toast]").filter({ hasText: "Restored your unsaved changes" })).toBeVisible();
    await expect(node(reopened, "agent")).toContainText("Unsaved label");
    await expect(reopened.getByTestId("unsaved-marker")).toBeVisible();
    expect(await exportCanvas(reopened)).toEqual(edited);

    // A reload (leave-page guard accepted) brings it back again: the draft survives being read.
    reopened.on("dialog", (dialog) => void dialog.accept());
    await reopened.reload();
    await expect(reopened.getByTestId("workflow-editor")).toBeVisible();
    await expect(node(reopened, "agent")).toContainText("Unsaved label");
    expect(await exportCanvas(reopened)).toEqual(edited);

    await reopened.getByTestId("save").click();
    await expect(reopened.getByTestId("unsaved-marker")).toHaveCount(0);
    await expect.poll(() => storedDraft(reopened, workflowId)).toBeNull();
    await reopened.reload();
    await expect(node(reopened, "agent")).toContainText("Unsaved label");
    await expect(reopened.locator("[data-sonner-toast]").filter({ hasText: "Restored your unsaved changes" })).toHaveCount(0);
    await expect(reopened.getByTestId("unsaved-marker")).toHaveCount(0);
  });

  test("the leave-page guard asks before a tab with unsaved changes closes or a link leaves the editor, and not once they are saved", async ({ page }) => {
    const { spec, layout } = linearSpec("guard");
    const workflowId = await createWorkflow(page.request, "E2E guard", spec, layout);
    await openEditor(page, workflowId);
    await relabel(page, "agent", "Not saved yet");
    await expect(page.getByTestId("unsaved-marker")).toBeVisible();
    const asked = page.waitForEvent("dialog");
    await page.close({ runBeforeUnload: true });
    const dialog = await asked;
    expect(dialog.type()).toBe("beforeunload");
    await dialog.dismiss();
    expect(page.isClosed()).toBe(false);
    await expect(node(page, "agent")).toContainText("Not saved yet");

    // A link to another page of the studio asks too; declining keeps the editor and its edits.
    const questions: string[] = [];
    page.once("dialog", (question) => {
      questions.push(`${question.type()}: ${question.message()}`);
      void question.dismiss();
    });
    await page.getByTestId("nav-home").click();
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatch(/^confirm: .*unsaved changes/);
    await expect(page).toHaveURL(new RegExp(`/workflows/${workflowId}$`));
    await expect(node(page, "agent")).toContainText("Not saved yet");

    await focusPane(page);
    await page.keyboard.press("Control+s");
    await expect(page.getByTestId("unsaved-marker")).toHaveCount(0);
    const dialogs: string[] = [];
    page.on("dialog", (next) => {
      dialogs.push(next.type());
      void next.dismiss();
    });
    const closed = page.waitForEvent("close");
    await page.close({ runBeforeUnload: true });
    await closed;
    expect(dialogs).toEqual([]);
  });

  test("history: an older revision opens read-only (no edits possible), and Restore saves it as a new revision", async ({ page }) => {
    const { spec, layout } = linearSpec("history");
    const workflowId = await createWorkflow(page.request, "E2E history", spec, layout);
    await openEditor(page, workflowId);
    await relabel(page, "agent", "Second revision");
    await page.getByTestId("save").click();
    await expect(page.getByTestId("revision-label")).toHaveText("revision 2");
    const [second, first] = await trpcQuery<RevisionRow[]>(page.request, "workflows.listRevisions", { workflowId, limit: 10 });

    await page.getByTestId("open-history").click();
    await expect(page.getByTestId("history-row")).toHaveCount(2);
    await page.locator('[data-testid="history-row"][data-revision-number="1"]').getByTestId("history-open").click();
    await expect(page.getByTestId("readonly-banner")).toBeVisible();
    await expect(page.getByTestId("revision-label")).toHaveText("revision 1 · read-only");
    await expect(node(page, "agent")).not.toContainText("Second revision");
    const viewed = await exportCanvas(page);
    expect(viewed.spec.nodes).toEqual(first?.spec.nodes);

    // Read-only: the label field is disabled and Delete removes nothing.
    await node(page, "agent").click();
    await expect(page.getByTestId("node-label-input")).toBeDisabled();
    await page.keyboard.press("Delete");
    await expect(page.getByTestId("canvas-node")).toHaveCount(3);

    await page.getByTestId("restore-revision").click();
    await expect(page.getByTestId("readonly-banner")).toHaveCount(0);
    await expect(page.getByTestId("revision-label")).toHaveText("revision 3");
    await expect(page.getByTestId("unsaved-marker")).toHaveCount(0);
    const revisions = await trpcQuery<RevisionRow[]>(page.request, "workflows.listRevisions", { workflowId, limit: 10 });
    expect(revisions.map((revision) => revision.number)).toEqual([3, 2, 1]);
    expect(revisions[0]?.message).toBe("Restored revision 1");
    expect(revisions[0]?.specSha256).toBe(first?.specSha256);
    expect(revisions[0]?.specSha256).not.toBe(second?.specSha256);
    expect((await exportCanvas(page)).spec).toEqual(viewed.spec);
  });

  test("copy two nodes as spec JSON on the system clipboard and paste them into another workflow", async ({ page, context, baseURL }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(baseURL as string).origin });
    const { spec, layout } = linearSpec("copy source", "Copy me exactly.");
    const sourceId = await createWorkflow(page.request, "E2E copy source", spec, layout);
    const blank = { version: 1, name: "paste target", nodes: [{ id: "input", type: "input", config: {} }, { id: "output", type: "output", config: {} }], edges: [{ id: "e", source: "input", sourcePort: "out", target: "output", targetPort: "in" }] };
    const targetId = await createWorkflow(page.request, "E2E paste target", blank, { nodes: { input: { x: 0, y: 0 }, output: { x: 320, y: 0 } } });

    await openEditor(page, sourceId);
    await node(page, "agent").click();
    await node(page, "output").click({ modifiers: ["Shift"] });
    await expect(page.getByTestId("multi-selection")).toContainText("2 nodes selected");
    await page.keyboard.press("Control+c");
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Copied 2 nodes as spec JSON" })).toBeVisible();
    const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as { version: number; nodes: { id: string; config: unknown }[]; edges: { source: string; target: string }[]; layout: { nodes: Record<string, unknown> } };
    expect(copied.version).toBe(1);
    expect(copied.nodes.map((entry) => entry.id)).toEqual(["agent", "output"]);
    expect(copied.edges.map((edge) => `${edge.source}->${edge.target}`)).toEqual(["agent->output"]);
    expect(copied.layout.nodes).toEqual({ agent: { x: 320, y: 0 }, output: { x: 640, y: 0 } });

    await openEditor(page, targetId);
    await expect(page.getByTestId("canvas-node")).toHaveCount(2);
    await focusPane(page);
    await page.keyboard.press("Control+v");
    await expect(page.getByTestId("canvas-node")).toHaveCount(4);
    const pasted = await exportCanvas(page);
    expect(pasted.spec.nodes.map((entry) => entry.id)).toEqual(["input", "output", "agent-1", "output-1"]);
    const agent = pasted.spec.nodes.find((entry) => entry.id === "agent-1");
    const output = pasted.spec.nodes.find((entry) => entry.id === "output-1");
    expect(agent?.config).toEqual({ name: "agent", instructions: "Copy me exactly." });
    expect(pasted.spec.edges.map((edge) => `${edge.source}->${edge.target}`)).toEqual(["input->output", "agent-1->output-1"]);
    const agentAt = pasted.layout.nodes[agent?.id as string];
    const outputAt = pasted.layout.nodes[output?.id as string];
    expect(outputAt && agentAt ? { dx: outputAt.x - agentAt.x, dy: outputAt.y - agentAt.y } : null).toEqual({ dx: 320, dy: 0 });
    await expect(page.getByTestId("unsaved-marker")).toBeVisible();
  });

  test("box select with Shift, duplicate the two nodes with Ctrl+D, delete the copies; Shift+click, delete, undo", async ({ page }) => {
    const { spec, layout } = linearSpec("select");
    const workflowId = await createWorkflow(page.request, "E2E select", spec, layout);
    await openEditor(page, workflowId);
    const original = await exportCanvas(page);
    const agentBox = await node(page, "agent").boundingBox();
    const outputBox = await node(page, "output").boundingBox();
    if (agentBox === null || outputBox === null) throw new Error("nodes not on screen");

    await page.keyboard.down("Shift");
    await page.mouse.move(agentBox.x - 24, agentBox.y - 40);
    await page.mouse.down();
    await page.mouse.move(outputBox.x + outputBox.width + 24, outputBox.y + outputBox.height + 40, { steps: 12 });
    await page.mouse.up();
    await page.keyboard.up("Shift");
    await expect(page.getByTestId("multi-selection")).toContainText("2 nodes selected");
    await expect(page.locator(".react-flow__node.selected")).toHaveCount(2);

    await page.keyboard.press("Control+d");
    await expect(page.getByTestId("canvas-node")).toHaveCount(5);
    const duplicated = await exportCanvas(page);
    const copies = duplicated.spec.nodes.filter((entry) => !["input", "agent", "output"].includes(entry.id));
    expect(copies.map((entry) => entry.type).sort()).toEqual(["agent", "output"]);
    for (const copy of copies) {
      const from = copy.type === "agent" ? "agent" : "output";
      expect(duplicated.layout.nodes[copy.id]).toEqual({ x: (original.layout.nodes[from]?.x ?? 0) + 32, y: (original.layout.nodes[from]?.y ?? 0) + 32 });
    }
    expect(duplicated.spec.edges).toHaveLength(3);

    // The copies are the selection now: Delete removes exactly them.
    await page.keyboard.press("Delete");
    await expect(page.getByTestId("canvas-node")).toHaveCount(3);
    expect(await exportCanvas(page)).toEqual(original);

    await node(page, "input").click();
    await node(page, "agent").click({ modifiers: ["Shift"] });
    await expect(page.getByTestId("multi-selection")).toContainText("2 nodes selected");
    await page.keyboard.press("Delete");
    await expect(page.getByTestId("canvas-node")).toHaveCount(1);
    const left = await exportCanvas(page);
    expect(left.spec.nodes.map((entry) => entry.id)).toEqual(["output"]);
    expect(left.spec.edges).toEqual([]);
    await focusPane(page);
    await page.keyboard.press("Control+z");
    await expect(page.getByTestId("canvas-node")).toHaveCount(3);
    expect(await exportCanvas(page)).toEqual(original);
  });

  test("command palette (Ctrl+K): add a node from the keyboard, then jump to a node off screen", async ({ page }) => {
    const { spec, layout } = linearSpec("palette");
    const labelled = { ...spec, nodes: spec.nodes.map((entry) => (entry.id === "agent" ? { ...entry, label: "Researcher" } : entry)) };
    const workflowId = await createWorkflow(page.request, "E2E palette", labelled, layout);
    await openEditor(page, workflowId);
    await focusPane(page);

    await page.keyboard.press("Control+k");
    await expect(page.getByTestId("command-palette")).toBeVisible();
    await expect(page.getByTestId("command-input")).toBeFocused();
    await page.keyboard.type("add memory");
    await expect(page.locator('[cmdk-item][data-selected="true"]')).toHaveAttribute("data-testid", "command-add-memory");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("command-palette")).toBeHidden();
    await expect(page.getByTestId("canvas-node")).toHaveCount(4);
    const added = await exportCanvas(page);
    expect(added.spec.nodes.map((entry) => `${entry.id}:${entry.type}`)).toEqual(["input:input", "agent:agent", "output:output", "memory-1:memory"]);

    // Drag the view so the agent leaves the screen, then jump back to it by its label.
    const pane = await page.locator(".react-flow__pane").boundingBox();
    if (pane === null) throw new Error("no pane");
    // From the empty bottom of the pane (clear of the controls and the minimap) up and to the left.
    await page.mouse.move(pane.x + pane.width - 250, pane.y + pane.height - 30);
    await page.mouse.down();
    await page.mouse.move(pane.x + 20, pane.y + 30, { steps: 10 });
    await page.mouse.up();
    await expect(node(page, "agent")).not.toBeInViewport();

    await page.keyboard.press("Control+k");
    await page.keyboard.type("Researcher");
    await expect(page.locator('[cmdk-item][data-selected="true"]')).toHaveAttribute("data-testid", "command-jump-agent");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("node-properties")).toHaveAttribute("data-node-id", "agent");
    await expect(node(page, "agent")).toBeInViewport();
    await expect
      .poll(async () => {
        const box = await node(page, "agent").boundingBox();
        const area = await page.locator(".react-flow__pane").boundingBox();
        if (box === null || area === null) return Number.POSITIVE_INFINITY;
        const a = centre(box);
        const b = centre(area);
        return Math.hypot(a.x - b.x, a.y - b.y);
      })
      .toBeLessThan(40);
  });

  test("command palette: Enter pressed the instant the text is typed acts on the list filtered by that text", async ({ page }) => {
    const { spec, layout } = linearSpec("palette-fast");
    const labelled = { ...spec, nodes: spec.nodes.map((entry) => (entry.id === "agent" ? { ...entry, label: "Shell runner" } : entry)) };
    const workflowId = await createWorkflow(page.request, "E2E palette fast", labelled, layout);
    await openEditor(page, workflowId);
    await focusPane(page);

    // No wait between the last key and Enter: the highlight cmdk shows may still be an earlier prefix's.
    await page.keyboard.press("Control+k");
    await page.getByTestId("command-input").pressSequentially("shell");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("command-palette")).toBeHidden();
    await expect(page.getByTestId("node-properties")).toHaveAttribute("data-node-id", "agent");
    await expect(page.getByTestId("canvas-node")).toHaveCount(3);

    await focusPane(page);
    await page.keyboard.press("Control+k");
    await page.getByTestId("command-input").pressSequentially("add tool");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("command-palette")).toBeHidden();
    await expect(page.getByTestId("canvas-node")).toHaveCount(4);
    expect((await exportCanvas(page)).spec.nodes.map((entry) => entry.type)).toEqual(["input", "agent", "output", "tool"]);

    // A highlight moved with the arrows for the current text is what Enter runs.
    await focusPane(page);
    await page.keyboard.press("Control+k");
    await page.getByTestId("command-input").pressSequentially("add me");
    const highlighted = page.locator('[cmdk-item][data-selected="true"]');
    await expect(highlighted).toHaveAttribute("data-testid", "command-add-merge");
    await page.keyboard.press("ArrowDown");
    await expect(highlighted).not.toHaveAttribute("data-testid", "command-add-merge");
    const second = await highlighted.getAttribute("data-testid");
    expect(second).toMatch(/^command-add-/);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("canvas-node")).toHaveCount(5);
    const added = (await exportCanvas(page)).spec.nodes[4];
    expect(`command-add-${added?.type}`).toBe(second);
  });

  test("`?` opens the list of every shortcut; a `?` typed into a field stays in the field", async ({ page }) => {
    const { spec, layout } = linearSpec("help");
    const workflowId = await createWorkflow(page.request, "E2E help", spec, layout);
    await openEditor(page, workflowId);
    await relabel(page, "agent", "What");
    await page.getByTestId("node-label-input").press("?");
    await expect(page.getByTestId("node-label-input")).toHaveValue("What?");
    await expect(page.getByTestId("shortcut-help")).toBeHidden();

    await focusPane(page);
    await page.keyboard.press("?");
    const help = page.getByTestId("shortcut-help");
    await expect(help).toBeVisible();
    await expect(help.locator("dt")).toHaveCount(19);
    await expect(help.locator("h3")).toHaveText(["Editing", "Canvas", "Workflow"]);
    await expect(help.locator("div", { hasText: "Command palette: add a node" }).last()).toContainText("Ctrl");
    await page.keyboard.press("Escape");
    await expect(help).toBeHidden();
  });

  test("auto-layout moves overlapping nodes apart; undo puts every position back, redo applies the layout again", async ({ page }) => {
    const { spec } = linearSpec("layout");
    const piled = { nodes: { input: { x: 0, y: 0 }, agent: { x: 16, y: 16 }, output: { x: 32, y: 32 } } };
    const workflowId = await createWorkflow(page.request, "E2E layout", spec, piled);
    await openEditor(page, workflowId);
    const before = await exportCanvas(page);
    expect(before.layout).toEqual(piled);

    await focusPane(page);
    await page.keyboard.press("Shift+L");
    await expect(page.getByTestId("workflow-editor")).toHaveAttribute("data-layout-count", "1");
    const after = await exportCanvas(page);
    expect(after.spec).toEqual(before.spec);
    const points = ["input", "agent", "output"].map((id) => after.layout.nodes[id] as { x: number; y: number });
    // Left to right along the wires, each node clear of the one before (offsetWidth is in canvas units).
    const widths = await Promise.all(["input", "agent"].map((id) => node(page, id).evaluate((element) => (element.closest(".react-flow__node") as HTMLElement).offsetWidth)));
    for (let index = 1; index < points.length; index++) {
      const [a, b] = [points[index - 1] as { x: number; y: number }, points[index] as { x: number; y: number }];
      expect(b.x - a.x).toBeGreaterThan(widths[index - 1] as number);
    }

    await focusPane(page);
    await page.keyboard.press("Control+z");
    expect((await exportCanvas(page)).layout).toEqual(piled);
    await page.keyboard.press("Control+Shift+Z");
    expect((await exportCanvas(page)).layout).toEqual(after.layout);
  });

  test("a Selector's properties list its candidates in wire order with the descriptions its model reads; editing one edits that node, undoably", async ({ page }) => {
    const templateId = await workflowIdByName(page, "Support triage loop");
    const { head } = await trpcQuery<{ head: { spec: Exported["spec"] } }>(page.request, "workflows.get", { workflowId: templateId });
    // A copy with positions, so the editor does not lay it out after opening (which would clear the selection).
    const layout = { nodes: Object.fromEntries(head.spec.nodes.map((entry, index) => [entry.id, { x: index * 320, y: 0 }])) };
    const workflowId = await createWorkflow(page.request, "E2E selector candidates", head.spec, layout);
    await openEditor(page, workflowId);
    await node(page, "router").click();
    const candidates = page.getByTestId("selector-candidate");
    await expect(candidates).toHaveCount(2);
    expect(await candidates.evaluateAll((elements) => elements.map((element) => element.getAttribute("data-node-id")))).toEqual(["specialist", "wrapup"]);
    await expect(candidates.nth(0)).toContainText("Specialist");
    await expect(candidates.nth(1).getByTestId("selector-candidate-description")).toHaveValue(/RESOLVED/);
    await expect(page.getByTestId("selector-candidates")).toContainText("done → Customer reply");
    const original = await candidates.nth(0).getByTestId("selector-candidate-description").inputValue();

    await candidates.nth(0).getByTestId("selector-candidate-description").fill("Takes the next concrete step.");
    const descriptionOf = async (id: string) => ((await exportCanvas(page)).spec.nodes.find((entry) => entry.id === id) as { description?: string } | undefined)?.description;
    expect(await descriptionOf("specialist")).toBe("Takes the next concrete step.");
    await page.getByTestId("undo").click();
    await expect(candidates.nth(0).getByTestId("selector-candidate-description")).toHaveValue(original);
    expect(await descriptionOf("specialist")).toBe(original);
  });

  test("Monaco validates a tool's parameters schema against the JSON Schema meta-schema (an invalid schema is marked) and types the tool's code by it", async ({ page, context, baseURL }) => {
    // The code goes in by paste: typed (even by insertText), "/**" may get Monaco's auto-closed " */" appended.
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(baseURL as string).origin });
    const pasteCode = async (text: string) => {
      await code.locator(".view-lines").click();
      await page.keyboard.press("Control+a");
      await page.keyboard.press("Delete");
      await page.evaluate((value) => navigator.clipboard.writeText(value), text);
      await page.keyboard.press("Control+v");
      await expect(code.locator(".view-lines")).toContainText(/args\.\w+/.exec(text)?.[0] ?? text);
    };
    const { spec, layout } = linearSpec("schema");
    const tool = { id: "lookup", type: "tool", config: { kind: "code", name: "lookup", description: "Looks a word up.", parametersSchema: { type: "object", properties: { word: { type: "string" } } }, code: "export default (args) => args.word;" } };
    const withTool = { ...spec, nodes: [...spec.nodes, tool], edges: [...spec.edges, { id: "e3", source: "lookup", sourcePort: "out", target: "agent", targetPort: "tools" }] };
    const workflowId = await createWorkflow(page.request, "E2E schema", withTool, { nodes: { ...layout.nodes, lookup: { x: 320, y: 240 } } });
    await openEditor(page, workflowId);
    await node(page, "lookup").click();
    const editor = page.getByTestId("json-editor-Parameters schema of lookup");
    await expect(editor).toHaveAttribute("data-monaco", "ready");
    await expect(editor.locator(".view-lines")).toContainText('"word"');
    // Give the JSON worker time to check the valid schema, then confirm it found nothing.
    await page.waitForTimeout(1500);
    await expect(editor.locator(".squiggly-error")).toHaveCount(0);

    // The code editor knows the arguments' type from that schema: a misspelt argument is marked, the right one is not.
    const code = page.getByTestId("code-editor");
    await expect(code).toHaveAttribute("data-monaco", "ready");
    await pasteCode("/** @type {RathTool} */\nexport default (args) => args.wrod;\n");
    await expect.poll(async () => code.locator(".squiggly-error").count()).toBeGreaterThanOrEqual(1);
    await pasteCode("/** @type {RathTool} */\nexport default (args) => args.word;\n");
    await expect.poll(async () => code.locator(".squiggly-error").count()).toBe(0);

    await editor.locator(".view-lines").click();
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Delete");
    await page.keyboard.insertText('{ "type": "objekt", "required": "word" }');
    // Monaco marks both meta-schema violations as errors; the server's validation names the node's problem too.
    await expect.poll(async () => editor.locator(".squiggly-error").count()).toBeGreaterThanOrEqual(2);
    await expect(page.locator('[data-testid="problem-item"][data-node-id="lookup"]')).toContainText('found type "objekt"');
    const exported = await exportCanvas(page);
    expect(exported.spec.nodes.find((entry) => entry.id === "lookup")?.config.parametersSchema).toEqual({ type: "objekt", required: "word" });
  });
});
