/**
 * Share links on the production build: the share dialog makes a link (shown once) and lists it with its expiry; a
 * fresh browser context (no cookies, nothing of the studio's) opens it and reads the graph and a tool chunk's
 * evidence, with no controls, approvals, share or editor links; with the token, mutations, another run's id,
 * lists and settings are refused by the server; after revoking, the page is a 404. A second server on the same
 * database that requires sign-in (RATH_AUTH=required, its worker's studio port + 51) opens the link without signing in.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { startRunFromHome } from "./helpers";
import { sessionGraph, trpcMutation } from "./run-view-fixtures";
import { studioDatabaseFile, studioPort } from "./studio-server";

const PORT = studioPort();

/** Serious or critical accessibility problems axe finds in `selector`. */
async function axeViolations(page: Page, selector: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include(selector).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}

/** Calls procedure `path` of the share API of `token` (a query by GET, a mutation by POST); returns status and error code. */
async function shareCall(request: APIRequestContext, base: string, token: string, path: string, input: unknown, mutation: boolean): Promise<{ status: number; code: string | null }> {
  const url = `${base}/api/share/${token}/trpc/${path}`;
  const response = mutation
    ? await request.post(url, { data: input, headers: { "content-type": "application/json" } })
    : await request.get(`${url}?input=${encodeURIComponent(JSON.stringify(input))}`);
  const body = (await response.json()) as { error?: { data?: { code?: string } } };
  return { status: response.status(), code: body.error?.data?.code ?? null };
}

async function createLinkInDialog(page: Page, expiry: string): Promise<{ url: string; token: string }> {
  await page.getByTestId("share-button").click();
  const dialog = page.getByTestId("share-dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByTestId("share-expiry").selectOption(expiry);
  await dialog.getByTestId("share-link-create").click();
  const url = (await dialog.getByTestId("share-link-url").textContent())?.trim() ?? "";
  const token = /\/share\/([A-Za-z0-9_-]{43})$/.exec(url)?.[1];
  expect(token, url).toBeDefined();
  return { url, token: token as string };
}

test("a share link: made in the dialog, read in a fresh context, refused everything else, 404 after revoking", async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  const otherRunId = await startRunFromHome(page, "Hello agent", "A run nobody shared.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  const runId = await startRunFromHome(page, "Hello agent", "List the workspace please.");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");

  const { url, token } = await createLinkInDialog(page, "1d");
  const dialog = page.getByTestId("share-dialog");
  await expect(dialog.getByTestId("share-link-row")).toHaveCount(1);
  await expect(dialog.getByTestId("share-link-row").getByTestId("share-link-expires")).toContainText("expires");
  await expect(dialog.getByTestId("share-link-row")).toContainText(token.slice(0, 6));
  expect(await axeViolations(page, '[data-testid="share-dialog"]')).toEqual([]);

  const reader = await browser.newContext();
  const shared = await reader.newPage();
  await test.step("a fresh context reads the graph and a tool chunk's evidence, and nothing it could change", async () => {
    const response = await shared.goto(url);
    expect(response?.status()).toBe(200);
    await expect(shared.getByTestId("run-page")).toHaveAttribute("data-run-id", runId);
    await expect(shared.getByTestId("read-only-badge")).toBeVisible();
    await expect(shared.getByTestId("graph-node").first()).toBeVisible();
    await expect(shared.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
    const toolChunk = shared.getByTestId("chunk-list").locator('[data-testid="chunk"][data-kind="tool_result"]').first();
    await toolChunk.click();
    const inspector = shared.getByTestId("chunk-inspector");
    await expect(inspector.getByTestId("inspector-tool-name")).toHaveText("run_shell_command");
    await expect(inspector.getByTestId("inspector-result-value")).toContainText("exit_code");
    for (const hidden of ["run-controls", "share-button", "canvas-node-link", "run-workflow-link", "nav-settings", "nav-runs", "sandbox-notice"]) {
      await expect(shared.getByTestId(hidden), hidden).toHaveCount(0);
    }
    await expect(shared.getByTestId("run-workflow-name")).toHaveText("Hello agent");
    await expect(shared.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex, nofollow/);
    await expect(shared.locator('meta[property="og:title"]')).toHaveAttribute("content", "Hello agent · succeeded");
    await expect(shared.locator('meta[property="og:description"]')).toHaveAttribute("content", /succeeded run of “Hello agent”/);
    await expect(shared.locator('meta[name="referrer"]')).toHaveAttribute("content", "no-referrer");
    // The e2e provider's key (settings, registered by other specs) and anything shaped like an OpenAI key never reach the page.
    expect(await shared.content()).not.toMatch(/sk-e2e|sk-[A-Za-z0-9]{20,}/);
    expect(await axeViolations(shared, "main")).toEqual([]);
  });

  await test.step("with the token, the server refuses every change, other runs, lists and settings", async () => {
    expect(await shareCall(request, "", token, "runs.get", { runId }, false)).toEqual({ status: 200, code: null });
    const ownSessionId = (await sessionGraph(request, runId)).sessions[0]?.id ?? "";
    expect(await shareCall(request, "", token, "sessions.chunks", { sessionId: ownSessionId }, false)).toEqual({ status: 200, code: null });
    const refused: Array<[string, unknown, boolean]> = [
      ["runs.start", { workflowId: "x", input: "hi" }, true],
      ["runs.cancel", { runId }, true],
      // Forking the shared run itself, at one of its own sessions, is refused too.
      ["runs.forkFrom", { sessionId: ownSessionId, chunkIndex: 0 }, true],
      ["runs.forkPreview", { sessionId: ownSessionId, chunkIndex: 0 }, false],
      ["runs.resume", { runId }, true],
      ["runs.review", { runId, effects: [] }, true],
      ["runs.decideInterrupt", { interruptId: "x", decision: "approve" }, true],
      ["workflows.create", { name: "x" }, true],
      ["settings.providers.upsert", { name: "x", kind: "openai" }, true],
      ["shareLinks.create", { runId, expiry: "never" }, true],
      ["shareLinks.revoke", { runId, linkId: "x" }, true],
      ["runs.get", { runId: otherRunId }, false],
      ["sessions.graph", { runId: otherRunId }, false],
      ["runs.list", {}, false],
      ["workflows.list", {}, false],
      ["settings.providers.list", {}, false],
      ["shareLinks.list", { runId }, false],
      ["account.me", {}, false],
    ];
    for (const [path, input, mutation] of refused) {
      expect(await shareCall(request, "", token, path, input, mutation), path).toEqual({ status: 403, code: "forbidden" });
    }
    const other = await request.get(`/api/trpc/runs.get?input=${encodeURIComponent(JSON.stringify({ runId }))}`);
    expect((await other.json()) as unknown).toMatchObject({ result: { data: { run: { status: "succeeded" } } } });
  });

  await test.step("revoking from the dialog turns the page and the API into 404s", async () => {
    await dialog.getByTestId("share-link-revoke").click();
    await dialog.getByTestId("share-link-revoke-confirm").click();
    await expect(dialog.getByTestId("share-links-empty")).toBeVisible();
    const response = await shared.reload();
    expect(response?.status()).toBe(404);
    await expect(shared.getByTestId("share-not-found")).toBeVisible();
    await expect(shared.getByTestId("run-page")).toHaveCount(0);
    expect((await shareCall(request, "", token, "runs.get", { runId }, false)).status).toBe(404);
    expect((await shared.request.get(`/share/${"A".repeat(43)}`)).status()).toBe(404);
  });
  await reader.close();
});

test.describe("on a studio that requires sign-in", () => {
  const signInPort = PORT + 51;
  const studio = `http://127.0.0.1:${signInPort}`;
  let server: ChildProcess | null = null;
  let log = "";

  test.beforeAll(async () => {
    // The same database as the main e2e server (playwright.config.ts), so a link made there opens here.
    const { RATH_EMBEDDED_WORKER: _embedded, RATH_IN_PROCESS_WORKER: _inProcess, ...inherited } = process.env;
    server = spawn(process.execPath, ["bin/rath-serve.mjs", "start", "--port", String(signInPort)], {
      env: {
        ...inherited,
        RATH_HOST: "127.0.0.1",
        RATH_AUTH: "required",
        RATH_IN_PROCESS_WORKER: "0",
        RATH_DB_PATH: studioDatabaseFile(),
        DATABASE_URL: "",
        NEXT_TELEMETRY_DISABLED: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
    server.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (server.exitCode !== null) throw new Error(`the sign-in server exited early:\n${log}`);
      const answered = await fetch(`${studio}/sign-in`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (answered) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`the sign-in server did not answer on ${studio}:\n${log}`);
  });

  test.afterAll(async () => {
    if (server !== null && server.exitCode === null) {
      const exited = new Promise((resolve) => server?.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
  });

  test("a share link opens without signing in; the rest of the studio still asks for it", async ({ page, browser }) => {
    test.setTimeout(120_000);
    const runId = await startRunFromHome(page, "Hello agent", "Shared with a signed-out reader.");
    await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
    const { token } = await trpcMutation<{ token: string }>(page.request, "shareLinks.create", { runId, expiry: "never" });

    const reader = await browser.newContext();
    const shared = await reader.newPage();
    await shared.goto(`${studio}/share/${token}`);
    await expect(shared).toHaveURL(`${studio}/share/${token}`);
    await expect(shared.getByTestId("run-page")).toHaveAttribute("data-run-id", runId);
    await expect(shared.getByTestId("graph-node").first()).toBeVisible();
    await expect(shared.getByTestId("chunk-list").locator('[data-testid="chunk"]').first()).toBeVisible();
    // The logo stays on the shared run (home would ask this reader to sign in).
    await expect(shared.getByTestId("nav-home")).toHaveAttribute("href", `/share/${token}`);
    await shared.getByTestId("nav-home").click();
    await expect(shared).toHaveURL(`${studio}/share/${token}`);
    await expect(shared.getByTestId("run-page")).toHaveAttribute("data-run-id", runId);
    expect(await shareCall(shared.request, studio, token, "runs.get", { runId }, false)).toEqual({ status: 200, code: null });
    expect(await shareCall(shared.request, studio, token, "runs.cancel", { runId }, true)).toEqual({ status: 403, code: "forbidden" });

    await shared.goto(`${studio}/runs/${runId}`);
    await expect(shared).toHaveURL(/\/sign-in\?next=/);
    expect((await shared.request.get(`${studio}/api/trpc/runs.get?input=${encodeURIComponent(JSON.stringify({ runId }))}`)).status()).toBe(401);
    expect((await shared.request.get(`${studio}/share/${"A".repeat(43)}`)).status()).toBe(404);
    await reader.close();
  });
});
