/**
 * "Fork from here" on the production build: a finished two-agent run is forked at the writer's answer with an
 * edited system prompt for the editor; the page opens the new run, which replays the writer (the model is not asked
 * again) and answers with the edited prompt, and both runs show the cross-run link.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { startChatCompletionsServer, type ChatCompletionsServer } from "../runtime/testing/chat-completions-server";
import { registerProvider, sessionGraph, trpcMutation, waitForStatus, type StartedRun } from "./run-view-fixtures";

const PROVIDER = `e2e-fork-${Date.now()}`;
let model: ChatCompletionsServer;
const asked: string[] = [];

interface WireMessage {
  role: string;
  content?: string | null;
}

test.beforeAll(async ({ request }) => {
  // Each answer is "<system prompt> | <last message>", so what an agent was told shows in its output.
  model = await startChatCompletionsServer({
    models: ["fast-model"],
    script: (recorded) => {
      const messages = ((recorded.body as { messages?: WireMessage[] }).messages ?? []);
      const system = messages.find((message) => message.role === "system")?.content ?? "";
      asked.push(system);
      return { type: "completion", content: `${system} | ${messages[messages.length - 1]?.content ?? ""}` };
    },
  });
  await registerProvider(request, PROVIDER, model);
});
test.afterAll(async () => {
  await model.close();
});

function chain(name: string): unknown {
  const agent = (id: string, instructions: string) => ({ id, type: "agent", label: id === "writer" ? "Writer" : "Editor", config: { name: id, instructions } });
  const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, sourcePort: "out", target, targetPort: "in" });
  return {
    version: 1,
    name,
    settings: { defaultProvider: PROVIDER, defaultModel: "fast-model" },
    nodes: [{ id: "input", type: "input", label: "Question", config: { defaultText: "Go." } }, agent("writer", "Writer: draft it"), agent("editor", "Editor: polish it"), { id: "output", type: "output", label: "Answer", config: {} }],
    edges: [edge("input", "writer"), edge("writer", "editor"), edge("editor", "output")],
  };
}

test("fork from the writer's answer with an edited editor prompt: the new run replays the writer and follows the new prompt", async ({ page }) => {
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: chain(`Fork chain ${Date.now()}`), input: "the launch" });
  const runId = started.run.id;
  expect(await waitForStatus(page.request, runId, ["succeeded", "failed"])).toBe("succeeded");
  const graph = await sessionGraph(page.request, runId);
  const writer = graph.sessions.find((session) => session.nodeId === "writer" && session.lineage.lineage_kind === "op_session_loop");
  if (writer === undefined) throw new Error("no writer session");
  const last = writer.chunkCount - 1;

  await page.goto(`/runs/${runId}?session=${writer.id}&chunk=${last}`);
  await expect(page.getByTestId("chunk-inspector")).toHaveAttribute("data-index", String(last));
  await page.getByTestId("fork-from-here").click();
  const dialog = page.getByTestId("fork-dialog");
  await expect(dialog.getByTestId("fork-summary")).toContainText("continues live at Editor");
  await expect(dialog.getByTestId("fork-instructions")).toHaveValue("Editor: polish it");
  const axe = await new AxeBuilder({ page }).include('[data-testid="fork-dialog"]').analyze();
  expect(axe.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical")).toEqual([]);
  await dialog.getByTestId("fork-instructions").fill("Editor: reply in one line");
  const before = asked.length;
  await dialog.getByTestId("fork-submit").click();

  await page.waitForURL((url) => /\/runs\/run_[a-z0-9]+$/.test(url.pathname) && !url.pathname.endsWith(runId));
  const forkId = await page.getByTestId("run-page").getAttribute("data-run-id");
  expect(forkId).not.toBe(runId);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  await expect(page.getByTestId("run-output")).toContainText("Editor: reply in one line | Writer: draft it | the launch");
  // The writer was replayed from the store: only the editor asked the model.
  expect(asked.slice(before)).toEqual(["Editor: reply in one line"]);
  const forkedFrom = page.getByTestId("run-forked-from");
  await expect(forkedFrom).toHaveAttribute("data-run-id", runId);
  await expect(forkedFrom).toContainText(`chunk ${last}`);

  await forkedFrom.click();
  await expect(page.getByTestId("run-page")).toHaveAttribute("data-run-id", runId);
  await expect(page.locator(`[data-testid="run-fork-link"][data-run-id="${forkId}"]`)).toBeVisible();
});
