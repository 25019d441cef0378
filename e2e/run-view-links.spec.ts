/**
 * The run view's links and controls on the production build: hovering a timeline row highlights its session in the
 * graph and hovering a graph node lights up its timeline row; the Resume button requeues a run in review that has
 * nothing left to decide, and the page follows it to `succeeded`.
 */
import { expect, test, type Page } from "@playwright/test";
import { chainSpec, MODELS, runDatabaseFixture, scriptedProviderForSpec, sessionGraph, trpcMutation, waitForStatus, type StartedRun } from "./run-view-fixtures";
import { fitWholeGraph } from "./graph-view";

const PROVIDER = scriptedProviderForSpec("e2e-links");

function timelineRow(page: Page, nodeId: string) {
  return page.locator(`[data-testid="timeline-step"][data-node-id="${nodeId}"]`);
}

function graphNode(page: Page, sessionId: string) {
  return page.locator(`[data-testid="graph-node"][data-session-id="${sessionId}"]`);
}

test("timeline and graph are linked: hovering one highlights the other", async ({ page }) => {
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: chainSpec("Hover link", PROVIDER, MODELS.fast, 3), input: "Go." });
  const runId = started.run.id;
  await waitForStatus(page.request, runId, ["succeeded"]);
  const graph = await sessionGraph(page.request, runId);
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-state", "ended");
  await expect(page.getByTestId("session-graph")).toHaveAttribute("data-session-count", String(graph.sessions.length));
  await expect(page.getByTestId("graph-chain")).toHaveCount(0);
  await fitWholeGraph(page);

  // Each step's row names the sessions it produced; the first and second steps' are drawn as their own nodes.
  const first = timelineRow(page, "step1");
  const second = timelineRow(page, "step2");
  // The session a step's row stands for in the graph: its output drawn as a node (prompt sessions are folded).
  const drawn = async (row: typeof first): Promise<string> => {
    const outputs = ((await row.getAttribute("data-outputs")) ?? "").split(" ").filter(Boolean);
    const ids = [];
    for (const id of outputs) if ((await graphNode(page, id).count()) === 1) ids.push(id);
    expect(ids, `drawn outputs of ${outputs.join(" ")}`).toHaveLength(1);
    return ids[0] as string;
  };
  const firstSession = await drawn(first);
  const secondSession = await drawn(second);
  expect(graph.sessions.find((session) => session.id === firstSession)?.nodeId).toBe("step1");
  expect(graph.sessions.find((session) => session.id === secondSession)?.nodeId).toBe("step2");
  await expect(graphNode(page, firstSession)).toHaveAttribute("data-highlighted", "false");
  await expect(graphNode(page, secondSession)).toHaveAttribute("data-highlighted", "false");

  // Timeline → graph: only the hovered step's session lights up, and it goes out when the pointer leaves.
  await first.hover();
  await expect(graphNode(page, firstSession)).toHaveAttribute("data-highlighted", "true");
  await expect(graphNode(page, secondSession)).toHaveAttribute("data-highlighted", "false");
  await second.hover();
  await expect(graphNode(page, secondSession)).toHaveAttribute("data-highlighted", "true");
  await expect(graphNode(page, firstSession)).toHaveAttribute("data-highlighted", "false");
  await page.getByTestId("run-status").hover();
  await expect(graphNode(page, secondSession)).toHaveAttribute("data-highlighted", "false");

  // Graph → timeline: hovering step 1's node lights up its row (step 3's output is the selection, lit anyway).
  await expect(first).toHaveAttribute("data-highlighted", "false");
  await expect(second).toHaveAttribute("data-highlighted", "false");
  await graphNode(page, firstSession).hover();
  await expect(first).toHaveAttribute("data-highlighted", "true");
  await expect(second).toHaveAttribute("data-highlighted", "false");
  await graphNode(page, secondSession).hover();
  await expect(second).toHaveAttribute("data-highlighted", "true");
  await expect(first).toHaveAttribute("data-highlighted", "false");
});

test("Resume requeues a run in review with nothing left to decide, and the page follows it to succeeded", async ({ page }) => {
  // A long run keeps the studio's one embedded worker busy, so the next run stays queued until the fixture claims it.
  const blocker = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: chainSpec("Blocker", PROVIDER, MODELS.blocker, 1), input: "Hold the worker." });
  await waitForStatus(page.request, blocker.run.id, ["running"]);
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: chainSpec("Resumable run", PROVIDER, MODELS.fast, 2), input: "Send the release email." });
  const runId = started.run.id;
  // A crash left a call ambiguous; it was settled since, so the run waits in review with nothing undecided.
  runDatabaseFixture("make-needs-review.ts", runId, "settled");

  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "needs_review");
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-state", "live");
  const resume = page.getByTestId("resume-button");
  await expect(resume).toBeEnabled();
  await expect(page.getByTestId("cancel-button")).toBeVisible();
  await resume.click();
  await expect(page.getByText("Run queued again")).toBeVisible();
  await expect(page.getByTestId("run-status")).not.toHaveAttribute("data-status", "needs_review");
  await expect(page.getByTestId("resume-button")).toHaveCount(0);
  // The blocker answers after 8 s; then the worker takes the resumed run and finishes it, live on the page.
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-state", "ended");
  await expect(page.getByTestId("retry-button")).toHaveText("Run again");
  const graph = await sessionGraph(page.request, runId);
  expect(graph.sessions.some((session) => session.nodeId === "step2")).toBe(true);
  await expect(page.getByTestId("session-graph")).toHaveAttribute("data-session-count", String(graph.sessions.length));
});
