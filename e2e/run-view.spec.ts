/**
 * The run view (session graph explorer) on the production build: exact fork/merge edges, tool evidence in the
 * inspector, a run that grows live without reload, a stream cut mid-run that resumes without losing or repeating
 * chunks, failed branches and "Jump to failure", inert model output, the selection in the URL, approvals (edit,
 * respond) and a needs_review settlement from the page.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import type { ChatCompletionsServer } from "../runtime/testing/chat-completions-server";
import { fitWholeGraph, nodeInPane, nodeLefts, smallestNameOnScreen } from "./graph-view";
import { selectedGraphNode, startRunFromHome } from "./helpers";
import { chainSpec, failingBranchSpec, MODELS, registerProvider, runDatabaseFixture, sessionGraph, startScriptedModel, trpcMutation, trpcQuery, waitForStatus, type GraphSession, type StartedRun } from "./run-view-fixtures";

// A fresh name per worker: the studio caches providers by name, and a restarted worker serves on a new port.
const PROVIDER = `e2e-scripted-${Date.now()}`;
let model: ChatCompletionsServer;

test.beforeAll(async ({ request }) => {
  model = await startScriptedModel();
  await registerProvider(request, PROVIDER, model);
});
test.afterAll(async () => {
  await model.close();
});

/** Sessions drawn as their own node: prompt sessions are folded into the turn they feed. */
function drawnSessions(sessions: readonly GraphSession[]): GraphSession[] {
  return sessions.filter((session) => !(session.lineage.lineage_kind === "leaf_system" && session.lineage.parent_session_ids.length === 0));
}

async function openRun(page: Page, runId: string, search = ""): Promise<void> {
  await page.goto(`/runs/${runId}${search}`);
  await expect(page.getByTestId("run-page")).toHaveAttribute("data-run-id", runId);
}

test("fork/merge: every fork and merge edge has exactly the parents sessions.graph reports", async ({ page }) => {
  const runId = await startRunFromHome(page, "Fork/merge research", "Compare SQLite and PostgreSQL.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-state", "ended");
  const graph = await sessionGraph(page.request, runId);
  const operated = graph.sessions.filter((session) => session.lineage.lineage_kind === "op_fork" || session.lineage.lineage_kind === "op_merge");
  expect(operated.filter((session) => session.lineage.lineage_kind === "op_fork")).toHaveLength(2);
  expect(operated.filter((session) => session.lineage.lineage_kind === "op_merge")).toHaveLength(1);
  // The graph renders only what is in view (at 1280 px it opens whole, but the default viewport is smaller).
  await fitWholeGraph(page);
  for (const session of operated) {
    const edges = page.locator(`[data-testid="graph-edge"][data-target="${session.id}"]`);
    await expect(edges).toHaveCount(new Set(session.lineage.parent_session_ids).size);
    const sources = await edges.evaluateAll((elements) => elements.map((element) => element.getAttribute("data-source")).sort());
    expect(sources).toEqual([...new Set(session.lineage.parent_session_ids)].sort());
    const kind = session.lineage.lineage_kind === "op_fork" ? "fork" : "merge";
    for (const element of await edges.all()) await expect(element).toHaveAttribute("data-kind", kind);
  }
  await expect(page.getByTestId("graph-legend")).toContainText("merge");

  // The merge shows its parents' shared prefix once, collapsed, and the point where the branches joined.
  const merge = operated.find((session) => session.lineage.lineage_kind === "op_merge") as GraphSession;
  await page.locator(`[data-testid="graph-node"][data-session-id="${merge.id}"]`).click();
  await expect(page.getByTestId("session-panel")).toHaveAttribute("data-session-id", merge.id);
  await expect(page.locator('[data-testid="chunk-segment"][data-kind="shared"]')).toHaveAttribute("data-collapsed", "true");
  await expect(page.getByTestId("chunk-join")).toHaveCount(1);
  await expect(page.locator('[data-testid="chunk-segment"][data-kind="repeated"]')).toContainText("same as #0");
  await page.locator('[data-testid="chunk-segment"][data-kind="shared"]').getByRole("button", { expanded: false }).click();
  await expect(page.getByTestId("chunk-list").locator('[data-testid="chunk"][data-kind="user"]').filter({ hasText: "Compare SQLite and PostgreSQL." })).toHaveCount(1);
  expect(page.url()).toContain(`session=${merge.id}`);
  await expect(page).toHaveTitle(/Fork\/merge research · succeeded/);
});

test("clicking a tool chunk shows its arguments, result and evidence; the URL restores that selection", async ({ page }) => {
  const runId = await startRunFromHome(page, "Hello agent", "List the workspace please.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  const toolChunk = page.getByTestId("chunk-list").locator('[data-testid="chunk"][data-kind="tool_result"]').first();
  await toolChunk.click();
  const inspector = page.getByTestId("chunk-inspector");
  await expect(inspector).toHaveAttribute("data-kind", "tool_result");
  await expect(inspector.getByTestId("inspector-tool-name")).toHaveText("run_shell_command");
  await expect(inspector.getByTestId("inspector-arguments-json")).toContainText("cmd");
  await expect(inspector.getByTestId("inspector-result-value")).toContainText("exit_code");
  await expect(inspector.getByTestId("inspector-tool-outcome").locator("[data-ok]")).toHaveAttribute("data-ok", "true");
  await expect(inspector.getByTestId("inspector-sandbox")).toContainText(/local|bwrap/);

  const sessionId = (await page.getByTestId("session-panel").getAttribute("data-session-id")) as string;
  const index = (await inspector.getAttribute("data-index")) as string;
  await expect.poll(() => page.url()).toContain(`session=${sessionId}&chunk=${index}`);

  // A copied link opens exactly that view.
  const fresh = await page.context().newPage();
  await openRun(fresh, runId, `?session=${sessionId}&chunk=${index}`);
  await expect(fresh.getByTestId("session-panel")).toHaveAttribute("data-session-id", sessionId);
  await expect(fresh.getByTestId("chunk-inspector")).toHaveAttribute("data-index", index);
  await expect(fresh.getByTestId("chunk-inspector")).toHaveAttribute("data-kind", "tool_result");
  await expect(selectedGraphNode(fresh)).toHaveAttribute("data-session-id", sessionId);
  await fresh.close();
});

/** The chunk list's last chunk index (its session's) and whether that chunk's row lies wholly inside the list's box. */
function lastChunkInList(page: Page): Promise<{ last: number; inBox: boolean }> {
  return page.evaluate(() => {
    const list = document.querySelector('[data-testid="chunk-list"]');
    if (list === null) return { last: -1, inBox: false };
    const last = Number(list.getAttribute("data-chunk-count")) - 1;
    const box = list.getBoundingClientRect();
    const row = list.querySelector(`[data-testid="chunk"][data-index="${last}"]`)?.getBoundingClientRect();
    return { last, inBox: row !== undefined && row.top >= box.top - 1 && row.bottom <= box.bottom + 1 };
  });
}

test("a slowed run grows live on the page without a reload", async ({ page }) => {
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: chainSpec("Slow chain", PROVIDER, MODELS.slow, 4, true), input: "Go slowly." });
  const runId = started.run.id;
  await openRun(page, runId);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "waiting");
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-state", "live");
  await page.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });
  // Record what the page shows at every change: how many sessions the graph holds, the run's status, the running node.
  await page.evaluate(() => {
    const seen: Array<{ sessions: number; status: string; running: boolean; next: string }> = [];
    (window as unknown as { __seen: typeof seen }).__seen = seen;
    const record = () =>
      seen.push({
        sessions: Number(document.querySelector('[data-testid="session-graph"]')?.getAttribute("data-session-count") ?? 0),
        status: document.querySelector('[data-testid="run-status"]')?.getAttribute("data-status") ?? "",
        running: document.querySelector('[data-testid="running-node"]') !== null,
        next: document.querySelector('[data-testid="run-page"]')?.getAttribute("data-next-steps") ?? "",
      });
    record();
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-session-count", "data-status", "data-next-steps"] });
  });
  await page.getByTestId("pending-approval").getByTestId("approve-button").click();
  // While it runs the view follows the newest session; a pan stops that, and "Follow" resumes it.
  const graphView = page.getByTestId("session-graph");
  await expect(graphView).toHaveAttribute("data-following", "true");
  const pane = await graphView.boundingBox();
  if (pane === null) throw new Error("the graph has no box");
  await page.mouse.move(pane.x + pane.width / 2, pane.y + 30);
  await page.mouse.down();
  await page.mouse.move(pane.x + pane.width / 2 + 120, pane.y + 60, { steps: 4 });
  await page.mouse.up();
  await expect(graphView).toHaveAttribute("data-following", "false");
  await page.getByTestId("graph-follow").click();
  await expect(graphView).toHaveAttribute("data-following", "true");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-state", "ended");
  // The newest session stayed in view, readable (every name in view ≥ 11 px on screen).
  const grown = await sessionGraph(page.request, runId);
  const newest = drawnSessions(grown.sessions).at(-1) as GraphSession;
  await expect.poll(() => nodeInPane(page, newest.id)).toBe(true);
  expect((await smallestNameOnScreen(page)).smallest).toBeGreaterThanOrEqual(11);
  // The chunk list followed the newest session to its end: its last chunk's row lies wholly in the list's box.
  await expect(page.getByTestId("chunk-list")).toHaveAttribute("data-session-id", newest.id);
  await expect.poll(() => lastChunkInList(page)).toEqual({ last: newest.chunkCount - 1, inBox: true });
  const seen = await page.evaluate(() => (window as unknown as { __seen: Array<{ sessions: number; status: string; running: boolean; next: string }> }).__seen);
  const before = seen[0]?.sessions ?? 0;
  // Sessions appeared while the run was running, and the running node was named meanwhile.
  expect(seen.some((entry) => entry.status === "running" && entry.sessions > before)).toBe(true);
  expect(seen.some((entry) => entry.status === "running" && entry.running), JSON.stringify(seen)).toBe(true);
  const graph = await sessionGraph(page.request, runId);
  await expect(page.getByTestId("session-graph")).toHaveAttribute("data-session-count", String(graph.sessions.length));
  expect(await page.getByTestId("timeline-step").count()).toBeGreaterThanOrEqual(6);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});

test("a stream cut mid-run resumes from the last event: no chunk missing, none twice", async ({ page }) => {
  let requests = 0;
  let cutAfterSeq = 0;
  await page.route("**/api/trpc/runs.onEvents**", async (route) => {
    requests += 1;
    if (requests === 1) {
      // The first connection is cut after its first few events arrived.
      const response = await fetch(route.request().url(), { headers: route.request().headers() });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = "";
      while ((text.match(/\nid: ?\d+/g) ?? []).length < 4) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      await reader.cancel();
      const ids = [...text.matchAll(/\nid: ?(\d+)/g)].map((match) => Number(match[1]));
      cutAfterSeq = ids[ids.length - 1] ?? 0;
      await route.fulfill({ status: 200, headers: { "content-type": "text/event-stream", "cache-control": "no-cache" }, body: text.slice(0, text.lastIndexOf("\n\n") + 2) });
      return;
    }
    if (requests <= 3) {
      await route.abort("connectionreset");
      return;
    }
    await route.continue();
  });
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: chainSpec("Cut stream", PROVIDER, MODELS.slow, 4, true), input: "Keep going." });
  const runId = started.run.id;
  await openRun(page, runId);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "waiting");
  // Approve only once the page has asked for the stream: approved earlier (a slow page), the whole rest of the run
  // could fit in the first connection's first events, and there would be nothing left to cut.
  await expect.poll(() => requests).toBeGreaterThanOrEqual(1);
  await page.getByTestId("pending-approval").getByTestId("approve-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });
  expect(requests).toBeGreaterThanOrEqual(4);
  expect(cutAfterSeq).toBeGreaterThan(0);
  await expect.poll(async () => Number(await page.getByTestId("live-indicator").getAttribute("data-reconnects"))).toBeGreaterThanOrEqual(1);

  const graph = await sessionGraph(page.request, runId);
  const drawn = drawnSessions(graph.sessions);
  // A graph this small draws every session (no collapsed chain), each with exactly its chunks. The view followed the
  // newest session at a readable zoom; the graph renders only what is in view, so Fit View shows the rest.
  await expect(page.getByTestId("graph-chain")).toHaveCount(0);
  await expect(page.getByTestId("session-graph")).toHaveAttribute("data-session-count", String(graph.sessions.length));
  await expect.poll(() => nodeInPane(page, (drawn.at(-1) as GraphSession).id)).toBe(true);
  await fitWholeGraph(page);
  await expect(page.getByTestId("graph-node")).toHaveCount(drawn.length);
  for (const session of drawn) {
    await expect(page.locator(`[data-testid="graph-node"][data-session-id="${session.id}"] [data-testid="graph-node-chunks"]`)).toHaveAttribute("data-count", String(session.chunkCount));
  }
  const last = drawn[drawn.length - 1] as GraphSession;
  await page.locator(`[data-testid="graph-node"][data-session-id="${last.id}"]`).click();
  const chunks = page.getByTestId("chunk-list").getByTestId("chunk");
  await expect(chunks).toHaveCount(last.chunkCount);
  const indices = await chunks.evaluateAll((elements) => elements.map((element) => Number(element.getAttribute("data-index"))));
  expect(indices).toEqual(Array.from({ length: last.chunkCount }, (_, index) => index));
});

test("time flows left to right: along a chain each session's node is right of the one before, readable on open", async ({ page }) => {
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: chainSpec("Left to right", PROVIDER, MODELS.fast, 5), input: "Go." });
  const runId = started.run.id;
  await waitForStatus(page.request, runId, ["succeeded"]);
  const graph = await sessionGraph(page.request, runId);
  const chain = drawnSessions(graph.sessions).filter((session) => session.nodeId?.startsWith("step"));
  expect(chain.map((session) => session.nodeId)).toEqual(["step1", "step2", "step3", "step4", "step5"]);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 860 });
    await openRun(page, runId);
    const graphView = page.getByTestId("session-graph");
    await expect(graphView).toHaveAttribute("data-layout", "elk");
    await expect(graphView).toHaveAttribute("data-direction", "RIGHT");
    // The opening view is readable: every name in view is ≥ 11 px on screen (the near look's 12 px names at a zoom ≥
    // 0.92, the far look's larger ones below it).
    await expect.poll(async () => (await smallestNameOnScreen(page)).names, `names in view at ${width} px`).toBeGreaterThan(0);
    expect((await smallestNameOnScreen(page)).smallest, `smallest name on open at ${width} px`).toBeGreaterThanOrEqual(11);
    await graphView.locator(".react-flow__controls-fitview").click();
    await expect(page.locator('[data-testid="graph-node"][data-session-id]')).toHaveCount(drawnSessions(graph.sessions).length);
    const lefts = await nodeLefts(page, chain.map((session) => session.id));
    for (let index = 1; index < lefts.length; index += 1) {
      expect(lefts[index], `${chain[index]?.nodeId} right of ${chain[index - 1]?.nodeId} at ${width} px`).toBeGreaterThan((lefts[index - 1] ?? Number.POSITIVE_INFINITY));
    }
  }
});

test("a failing branch is marked and Jump to failure selects the failing chunk with its evidence", async ({ page }) => {
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: failingBranchSpec("Failing branch", PROVIDER), input: "Read the notes." });
  const runId = started.run.id;
  await waitForStatus(page.request, runId, ["succeeded", "failed"]);
  const graph = await sessionGraph(page.request, runId);
  const failing = graph.sessions.find((session) => session.toolErrors !== null) as GraphSession;
  expect(failing.nodeId).toBe("reader");
  const writer = graph.sessions.find((session) => session.nodeId === "writer" && session.lineage.lineage_kind === "op_session_loop") as GraphSession;

  await openRun(page, runId);
  const failedNode = page.locator(`[data-testid="graph-node"][data-session-id="${failing.id}"]`);
  await expect(failedNode).toHaveAttribute("data-status", "failed");
  await expect(failedNode).toHaveAttribute("data-failure-path", "true");
  for (const parent of failing.lineage.parent_session_ids) {
    const parentNode = page.locator(`[data-testid="graph-node"][data-session-id="${parent}"]`);
    if ((await parentNode.count()) > 0) await expect(parentNode).toHaveAttribute("data-failure-path", "true");
  }
  await expect(page.locator(`[data-testid="graph-node"][data-session-id="${writer.id}"]`)).toHaveAttribute("data-failure-path", "false");
  await expect(page.locator(`[data-testid="graph-edge"][data-target="${failing.id}"][data-failure-path="true"]`).first()).toBeAttached();
  await expect(page.getByTestId("run-errors")).toContainText("1 failed tool call");
  // It opens on the failure with its path, and the selected session (the run's output, the Join) wholly in the pane.
  await expect(selectedGraphNode(page)).toHaveAttribute("data-node-id", "merge");
  const selectedId = (await selectedGraphNode(page).getAttribute("data-session-id")) as string;
  await expect.poll(async () => [await nodeInPane(page, failing.id), await nodeInPane(page, selectedId)]).toEqual([true, true]);

  await page.getByTestId("jump-to-failure").click();
  await expect(page.getByTestId("session-panel")).toHaveAttribute("data-session-id", failing.id);
  const inspector = page.getByTestId("chunk-inspector");
  await expect(inspector).toHaveAttribute("data-index", String(failing.toolErrors?.firstIndex));
  await expect(inspector).toHaveAttribute("data-kind", "tool_result");
  await expect(inspector.getByTestId("inspector-tool-outcome").locator("[data-ok]")).toHaveAttribute("data-ok", "false");
  await expect(inspector.getByTestId("inspector-tool-outcome")).toContainText("file_not_found");
  await expect(inspector.getByTestId("inspector-arguments-json")).toContainText("does-not-exist.txt");
  await expect(page.locator(`[data-testid="chunk"][data-index="${failing.toolErrors?.firstIndex}"]`).getByTestId("chunk-select")).toHaveAttribute("aria-current", "true");
  await expect.poll(() => page.url()).toContain(`chunk=${failing.toolErrors?.firstIndex}`);
});

test("<script>, <img onerror> and javascript: links in model output stay inert", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const payload = "<script>window.__pwned=1</script> <img src=x onerror=alert(1)> [click me](javascript:alert(2))";
  await startRunFromHome(page, "Hello agent", payload);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  const assistant = page.getByTestId("chunk-list").locator('[data-testid="chunk"][data-kind="assistant"]').last();
  await expect(assistant.getByTestId("chunk-text")).toContainText("<script>window.__pwned=1</script>");
  await expect(assistant.getByTestId("chunk-text")).toContainText("<img src=x onerror=alert(1)>");
  await expect(assistant.getByTestId("markdown-neutralised-link")).toHaveText("click me");
  await expect(page.locator('a[href^="javascript:"]')).toHaveCount(0);
  await expect(page.getByTestId("chunk-list").locator("script")).toHaveCount(0);
  await expect(page.locator("img")).toHaveCount(0);
  await assistant.click();
  await expect(page.getByTestId("inspector-markdown").getByTestId("markdown-neutralised-link")).toHaveCount(1);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
});

test("approvals: edit and respond from the page", async ({ page }) => {
  await startRunFromHome(page, "Approval", "Draft a note about the release.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "waiting");
  await expect(page.getByTestId("graph-pending")).toHaveAttribute("data-status", "waiting");
  const approval = page.getByTestId("pending-approval");
  await approval.getByTestId("edit-button").click();
  await expect(approval.getByTestId("approval-draft")).toHaveValue(/Draft a note about the release\./);
  await approval.getByTestId("approval-draft").fill("Edited by a person in e2e.");
  await approval.getByTestId("approval-submit").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  await expect(page.getByTestId("pending-approval")).toHaveCount(0);
  await expect(page.getByTestId("run-output")).toContainText("Edited by a person in e2e.");

  await startRunFromHome(page, "Approval", "Draft another note.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "waiting");
  await page.getByTestId("pending-approval").getByTestId("respond-button").click();
  await page.getByTestId("approval-draft").fill("Answer from the reviewer.");
  await page.getByTestId("approval-submit").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  await expect(page.getByTestId("chunk-list").locator('[data-testid="chunk"][data-kind="user"]').filter({ hasText: "Answer from the reviewer." })).toHaveCount(1);
});

test("needs_review: settle the ambiguous call as succeeded with its content, then requeue, from the page", async ({ page }) => {
  // A long run keeps the studio's one embedded worker busy, so the next run stays queued until the fixture claims it.
  const blocker = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: chainSpec("Blocker", PROVIDER, MODELS.blocker, 1), input: "Hold the worker." });
  await waitForStatus(page.request, blocker.run.id, ["running"]);
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: chainSpec("Crashed run", PROVIDER, MODELS.fast, 1), input: "Send the release email." });
  const { effectId } = runDatabaseFixture<{ effectId: string }>("make-needs-review.ts", started.run.id);

  await openRun(page, started.run.id);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "needs_review");
  const effect = page.locator(`[data-testid="review-effect"][data-effect-id="${effectId}"]`);
  await expect(effect).toContainText("send_email");
  await expect(page.getByTestId("review-requeue")).toBeDisabled();
  await effect.getByTestId("review-succeeded").check();
  await effect.getByTestId("review-content").fill('{"sent":true,"id":"msg-1"}');
  await page.getByTestId("review-requeue").click();
  await expect(page.getByTestId("run-status")).not.toHaveAttribute("data-status", "needs_review");
  await expect(page.getByTestId("review-panel")).toHaveCount(0);
  const effects = await trpcQuery<Array<{ id: string; status: string; result: unknown }>>(page.request, "runs.effects", { runId: started.run.id });
  expect(effects.find((entry) => entry.id === effectId)).toMatchObject({ status: "succeeded" });
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });
});

test("a long chain collapses into one node that expands and collapses; costs follow the price table", async ({ page }) => {
  // Chains collapse only in a graph too large to read whole: more than 40 drawn sessions.
  const started = await trpcMutation<StartedRun>(page.request, "runs.start", { spec: chainSpec("Long chain", PROVIDER, MODELS.fast, 44), input: "Go." });
  const runId = started.run.id;
  await waitForStatus(page.request, runId, ["succeeded"]);
  const graph = await sessionGraph(page.request, runId);
  const drawn = drawnSessions(graph.sessions);
  expect(drawn.length).toBeGreaterThan(40);
  // No price for the model to begin with (deleting an absent price answers 404).
  const cleared = await page.request.post("/api/trpc/settings.modelPrices.delete", { data: { model: MODELS.fast }, headers: { "content-type": "application/json" } });
  expect([200, 404]).toContain(cleared.status());

  await openRun(page, runId);
  const chain = page.getByTestId("graph-chain");
  await expect(chain).toHaveCount(1);
  // The run view has no serious or critical accessibility violation, in either theme.
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
    expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
  }
  await expect(chain).toHaveAttribute("data-count", String(drawn.length));
  await expect(page.getByTestId("graph-node")).toHaveCount(0);
  // No price for the model yet: "—" with a link to the price table.
  await expect(page.getByTestId("run-cost")).toHaveAttribute("data-known", "false");
  await expect(page.getByTestId("run-cost-hint")).toHaveAttribute("href", "/settings#prices-heading");
  await expect(page.getByTestId("run-cost-hint")).toHaveAttribute("title", new RegExp(MODELS.fast));

  await chain.click();
  await expect(page.getByTestId("graph-chain")).toHaveCount(0);
  // Every session is a node now (only those in view are in the DOM), and the chain's start is in view.
  await expect(page.getByTestId("session-graph")).toHaveAttribute("data-node-count", String(drawn.length));
  await expect(page.locator(`[data-testid="graph-node"][data-session-id="${drawn[0]?.id}"]`)).toBeInViewport();
  await page.getByTestId("collapse-chains").click();
  await expect(page.getByTestId("graph-chain")).toHaveCount(1);
  await expect(page.getByTestId("graph-node")).toHaveCount(0);

  // With a price, the run, the selected session and its branch show what they cost (own usage by model, each once).
  await trpcMutation(page.request, "settings.modelPrices.upsert", { model: MODELS.fast, inputPerMillion: 3, outputPerMillion: 15 });
  try {
    const usage = await trpcQuery<{ sessions: Record<string, Array<{ model: string; prompt_tokens: number; completion_tokens: number }>> }>(page.request, "sessions.usageByModel", { runId });
    const usdOf = (ids: readonly string[]) => ids.flatMap((id) => usage.sessions[id] ?? []).reduce((sum, entry) => sum + (entry.prompt_tokens * 3 + entry.completion_tokens * 15) / 1_000_000, 0);
    const runUsd = usdOf(graph.sessions.map((session) => session.id));
    expect(runUsd).toBeGreaterThan(0);
    const last = drawn[drawn.length - 1] as GraphSession;
    await openRun(page, runId, `?session=${last.id}`);
    await expect(page.getByTestId("run-cost")).toHaveAttribute("data-known", "true");
    expect(Number(await page.getByTestId("run-cost").getAttribute("data-usd"))).toBeCloseTo(runUsd, 9);
    await expect(page.getByTestId("usage-run-cost")).toHaveAttribute("data-usd", String(Number(await page.getByTestId("run-cost").getAttribute("data-usd"))));
    expect(Number(await page.getByTestId("usage-own-cost").getAttribute("data-usd"))).toBeCloseTo(usdOf([last.id]), 9);
    // The selected session was inside the chain: selecting it opened the chain, and its node is in view.
    await expect(page.getByTestId("graph-chain")).toHaveCount(0);
    await expect(selectedGraphNode(page)).toHaveAttribute("data-session-id", last.id);
    await expect(selectedGraphNode(page)).toBeInViewport();
  } finally {
    await trpcMutation(page.request, "settings.modelPrices.delete", { model: MODELS.fast });
  }
});
