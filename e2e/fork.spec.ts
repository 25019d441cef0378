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
  // The timeline reads whole: the replayed question and writer first (marked), then the live editor and answer.
  const rows = page.getByTestId("timeline-step");
  await expect(rows).toHaveCount(4);
  expect(await rows.evaluateAll((elements) => elements.map((element) => [element.getAttribute("data-node-id"), element.getAttribute("data-replayed")]))).toEqual([
    ["input", "prefix"],
    ["writer", "prefix"],
    ["editor", null],
    ["output", null],
  ]);
  await expect(rows.nth(1).getByTestId("timeline-replayed")).toBeVisible();
  await expect(rows.nth(1)).toHaveAttribute("title", /^Replayed from run .+, step 2: no model call/);
  const forkedFrom = page.getByTestId("run-forked-from");
  await expect(forkedFrom).toHaveAttribute("data-run-id", runId);
  await expect(forkedFrom).toContainText(`chunk ${last}`);

  await forkedFrom.click();
  await expect(page.getByTestId("run-page")).toHaveAttribute("data-run-id", runId);
  await expect(page.locator(`[data-testid="run-fork-link"][data-run-id="${forkId}"]`)).toBeVisible();
});

test("another revision picked in the fork dialog: its next agent's prompt is shown, and the edit on it is what runs", async ({ page }) => {
  const spec = chain(`Fork revision ${Date.now()}`) as { nodes: Array<{ id: string; config: Record<string, unknown> }> };
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { spec, input: "the launch" });
  const runId = started.run.id;
  expect(await waitForStatus(page.request, runId, ["succeeded", "failed"])).toBe("succeeded");
  const edited = structuredClone(spec);
  (edited.nodes.find((entry) => entry.id === "editor") as { config: Record<string, unknown> }).config.instructions = "Editor v2: be brief";
  const v2 = await trpcMutation<{ id: string; number: number }>(page.request, "workflows.saveRevision", { workflowId: started.run.workflowId, spec: edited, message: "brief editor" });
  const graph = await sessionGraph(page.request, runId);
  const writer = graph.sessions.find((session) => session.nodeId === "writer" && session.lineage.lineage_kind === "op_session_loop");
  if (writer === undefined) throw new Error("no writer session");

  await page.goto(`/runs/${runId}?session=${writer.id}&chunk=${writer.chunkCount - 1}`);
  await page.getByTestId("fork-from-here").click();
  const dialog = page.getByTestId("fork-dialog");
  await expect(dialog.getByTestId("fork-instructions")).toHaveValue("Editor: polish it");
  await dialog.getByTestId("fork-instructions").fill("typed for revision 1");
  await dialog.getByTestId("fork-revision").selectOption(v2.id);
  // The picked revision's prompt replaces the one shown (and what was typed for the other revision).
  await expect(dialog.locator("form")).toHaveAttribute("data-revision-id", v2.id);
  await expect(dialog.getByTestId("fork-instructions")).toHaveValue("Editor v2: be brief");
  await dialog.getByTestId("fork-instructions").fill("Editor v2: one line");
  const before = asked.length;
  await dialog.getByTestId("fork-submit").click();

  await page.waitForURL((url) => /\/runs\/run_[a-z0-9]+$/.test(url.pathname) && !url.pathname.endsWith(runId));
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  expect(asked.slice(before)).toEqual(["Editor v2: one line"]);
  await expect(page.getByTestId("run-output")).toContainText("Editor v2: one line | Writer: draft it | the launch");
});

const node = (id: string, type: string, label: string, config: Record<string, unknown> = {}) => ({ id, type, label, config });
const agentNode = (id: string, label: string, instructions: string) => node(id, "agent", label, { name: id, instructions });
const wire = (source: string, target: string) => ({ id: `${source}-${target}`, source, sourcePort: "out", target, targetPort: "in" });

/** Question -> Split -> (Pros | Cons) -> Join -> Summary -> Answer. */
function mergeSpec(): unknown {
  return {
    version: 1,
    name: `Fork merge ${Date.now()}`,
    settings: { defaultProvider: PROVIDER, defaultModel: "fast-model" },
    nodes: [
      node("input", "input", "Question", { defaultText: "Weigh it." }),
      node("split", "fork", "Split", { branches: 2 }),
      agentNode("pros", "Pros", "Pros: argue for"),
      agentNode("cons", "Cons", "Cons: argue against"),
      node("join", "merge", "Join"),
      agentNode("summary", "Summary", "Summary: weigh both"),
      node("output", "output", "Answer"),
    ],
    edges: [wire("input", "split"), wire("split", "pros"), wire("split", "cons"), wire("pros", "join"), wire("cons", "join"), wire("join", "summary"), wire("summary", "output")],
  };
}

test("a chunk of a merge's output forks from the branch it came from, chosen by keyboard; the dialog says what each fork keeps", async ({ page }) => {
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: mergeSpec(), input: "SQLite or PostgreSQL?" });
  expect(await waitForStatus(page.request, started.run.id, ["succeeded", "failed"])).toBe("succeeded");
  const graph = await sessionGraph(page.request, started.run.id);
  const merged = graph.sessions.find((session) => session.nodeId === "join" && session.lineage.lineage_kind === "op_merge");
  const pros = graph.sessions.find((session) => session.nodeId === "pros" && session.lineage.lineage_kind === "op_session_loop");
  if (merged === undefined || pros === undefined) throw new Error("no merge");
  // The first chunk of the Cons branch inside the merged session.
  const at = pros.chunkCount;

  await page.goto(`/runs/${started.run.id}?session=${merged.id}&chunk=${at}`);
  await expect(page.getByTestId("chunk-inspector")).toHaveAttribute("data-index", String(at));
  await page.getByTestId("fork-from-here").focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByTestId("fork-dialog");
  const sides = dialog.getByTestId("fork-side");
  await expect(sides).toHaveCount(2);
  await expect(sides.nth(0)).toHaveAttribute("data-role", "merged");
  await expect(sides.nth(0).getByRole("radio")).toBeChecked();
  await expect(dialog.getByTestId("fork-summary")).toContainText(`Chunks 0–${at} of the merged session (all ${pros.chunkCount} chunks of Pros, 1 of`);
  await expect(dialog.getByTestId("fork-summary")).toContainText("continues after the merge at Summary");
  const axe = await new AxeBuilder({ page }).include('[data-testid="fork-dialog"]').analyze();
  expect(axe.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical")).toEqual([]);

  // Keyboard: the radio group takes the arrows.
  await sides.nth(0).getByRole("radio").focus();
  await page.keyboard.press("ArrowDown");
  await expect(sides.nth(1).getByRole("radio")).toBeChecked();
  await expect(dialog.getByTestId("fork-summary")).toContainText("Chunks 0–0 of Cons's branch; Cons continues from there, and the merge joins it again");
  await expect(dialog.getByTestId("fork-input")).toHaveValue("SQLite or PostgreSQL?");
  await dialog.getByTestId("fork-input").fill("Only the risks.");
  const before = asked.length;
  await dialog.getByTestId("fork-submit").click();

  await page.waitForURL((url) => /\/runs\/run_[a-z0-9]+$/.test(url.pathname) && !url.pathname.endsWith(started.run.id));
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  // Only the Cons branch ran again (on the edited input), then the summary; Pros was replayed.
  expect(asked.slice(before)).toEqual(["Cons: argue against", "Summary: weigh both"]);
  await expect(page.getByTestId("run-output")).toContainText("Summary: weigh both | Cons: argue against | Only the risks.");
});

test("forking inside the first branch replays the other branch from the original: the dialog says so and its model is not asked", async ({ page }) => {
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: mergeSpec(), input: "SQLite or PostgreSQL?" });
  expect(await waitForStatus(page.request, started.run.id, ["succeeded", "failed"])).toBe("succeeded");
  const graph = await sessionGraph(page.request, started.run.id);
  const pros = graph.sessions.find((session) => session.nodeId === "pros" && session.lineage.lineage_kind === "op_session_loop");
  if (pros === undefined) throw new Error("no pros output");
  // Chunk 0 of the Pros branch: the run input, inside the Pros agent's turns (Cons has not run at that checkpoint).
  await page.goto(`/runs/${started.run.id}?session=${pros.id}&chunk=0`);
  await expect(page.getByTestId("chunk-inspector")).toHaveAttribute("data-index", "0");
  await page.getByTestId("fork-from-here").click();
  const dialog = page.getByTestId("fork-dialog");
  await expect(dialog.getByTestId("fork-replayed")).toContainText("Replayed from the original run, without calling a model (they do not depend on this point): Cons.");
  await expect(dialog.getByTestId("fork-also-runs")).toHaveCount(0);
  await dialog.getByTestId("fork-input").fill("Only the upside.");
  const before = asked.length;
  await dialog.getByTestId("fork-submit").click();

  await page.waitForURL((url) => /\/runs\/run_[a-z0-9]+$/.test(url.pathname) && !url.pathname.endsWith(started.run.id));
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  // Pros ran again on the edited input, then the summary; Cons came from the original run.
  expect(asked.slice(before)).toEqual(["Pros: argue for", "Summary: weigh both"]);
  await expect(page.getByTestId("run-output")).toContainText("Summary: weigh both | Cons: argue against | SQLite or PostgreSQL?");
  // The replayed Cons session is drawn in the new run's graph.
  const forkId = (await page.getByTestId("run-page").getAttribute("data-run-id")) ?? "";
  const forkGraph = await sessionGraph(page.request, forkId);
  const cons = forkGraph.sessions.find((session) => session.nodeId === "cons");
  expect(cons?.lineage.lineage_extras).toEqual(expect.arrayContaining([["replay.from_run", started.run.id]]));
  await expect(page.locator(`[data-testid="graph-node"][data-session-id="${cons?.id ?? ""}"]`)).toBeVisible();
});

test("an approval the original run decided is carried into a fork: the dialog says so and the fork does not ask again", async ({ page }) => {
  const spec = {
    version: 1,
    name: `Fork gate ${Date.now()}`,
    settings: { defaultProvider: PROVIDER, defaultModel: "fast-model" },
    nodes: [
      node("input", "input", "Question", { defaultText: "Draft it." }),
      node("split", "fork", "Split", { branches: 2 }),
      node("gate", "approval", "Gate", { prompt: "Send it?", allowEdit: true }),
      agentNode("analyst", "Analyst", "Analyst: check it"),
      node("join", "merge", "Join"),
      node("output", "output", "Answer"),
    ],
    // The analyst's branch is merged first, so the output is the gate's (edited) text.
    edges: [wire("input", "split"), wire("split", "gate"), wire("split", "analyst"), wire("analyst", "join"), wire("gate", "join"), wire("join", "output")],
  };
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { spec, input: "Draft it." });
  const runId = started.run.id;
  expect(await waitForStatus(page.request, runId, ["waiting", "failed"])).toBe("waiting");
  await page.goto(`/runs/${runId}`);
  const approval = page.getByTestId("pending-approval");
  await expect(approval).toBeVisible();
  await approval.getByTestId("edit-button").click();
  await approval.getByTestId("approval-draft").fill("Edited by a person.");
  await approval.getByTestId("approval-submit").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  const graph = await sessionGraph(page.request, runId);
  const analyst = graph.sessions.find((session) => session.nodeId === "analyst" && session.lineage.lineage_kind === "op_session_loop");
  if (analyst === undefined) throw new Error("no analyst session");

  await page.goto(`/runs/${runId}?session=${analyst.id}&chunk=${analyst.chunkCount - 1}`);
  await page.getByTestId("fork-from-here").click();
  const dialog = page.getByTestId("fork-dialog");
  const carried = dialog.getByTestId("fork-approval-carried");
  await expect(carried).toHaveAttribute("data-node-id", "gate");
  await expect(carried).toContainText("Gate: edited in the original run — the fork applies that decision and does not ask again.");
  await expect(dialog.getByTestId("fork-approval-asked")).toHaveCount(0);
  await dialog.getByTestId("fork-submit").click();

  await page.waitForURL((url) => /\/runs\/run_[a-z0-9]+$/.test(url.pathname) && !url.pathname.endsWith(runId));
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  await expect(page.getByTestId("run-output")).toContainText("Edited by a person.");
  await expect(page.getByTestId("pending-approval")).toHaveCount(0);
});
