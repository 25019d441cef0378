/**
 * Sign-in end to end, against a second production server this spec starts itself with RATH_AUTH=required on
 * 127.0.0.1 (its worker's studio port + 50, its own fresh database), since the shared web server runs without sign-in:
 * a stranger is sent to /sign-in; the first account is made on the loopback-only /setup page (then /setup is a
 * 404); `rath user create` makes a second one; sign-in by keyboard returns to the page asked for; an API key made in
 * settings opens the API to a script (401 without it, and again after revoking it); sign-out closes the studio.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { studioPort } from "./studio-server";

const PORT = studioPort() + 50;
const STUDIO = `http://127.0.0.1:${PORT}`;
const directory = mkdtempSync(path.join(os.tmpdir(), "rath-e2e-auth-"));
const DATABASE_PATH = path.join(directory, "studio.db");
let server: ChildProcess | null = null;
let serverLog = "";

async function waitForServer(): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server?.exitCode !== null) throw new Error(`the sign-in server exited early:\n${serverLog}`);
    try {
      const response = await fetch(`${STUDIO}/sign-in`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the sign-in server did not answer on ${STUDIO}:\n${serverLog}`);
}

test.beforeAll(async () => {
  const { RATH_EMBEDDED_WORKER: _embedded, RATH_IN_PROCESS_WORKER: _inProcess, ...inherited } = process.env;
  server = spawn(process.execPath, ["bin/rath-serve.mjs", "start", "--port", String(PORT)], {
    env: { ...inherited, RATH_HOST: "127.0.0.1", RATH_AUTH: "required", RATH_DB_PATH: DATABASE_PATH, DATABASE_URL: "", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", (chunk: Buffer) => (serverLog += chunk.toString("utf8")));
  server.stderr?.on("data", (chunk: Buffer) => (serverLog += chunk.toString("utf8")));
  await waitForServer();
});

test.afterAll(async () => {
  if (server !== null && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  rmSync(directory, { recursive: true, force: true });
});

async function workflowsStatus(request: APIRequestContext, headers: Record<string, string>): Promise<number> {
  const response = await request.get(`${STUDIO}/api/trpc/workflows.list`, { headers });
  return response.status();
}

/** Accessibility problems axe finds in `selector` (this spec's own UI; rule id: the offending elements). */
async function axeViolations(page: Page, selector = "main"): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include(selector).analyze();
  return results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}

async function signOut(page: Page): Promise<void> {
  await page.getByTestId("sign-out").click();
  await page.waitForURL(`${STUDIO}/sign-in`);
}

test("sign-in required: first-run page, rath user create, keyboard sign-in, API keys, sign-out", async ({ page, playwright }) => {
  test.setTimeout(240_000);
  const script = await playwright.request.newContext();

  await test.step("a stranger is sent to /sign-in; the API answers 401", async () => {
    await page.goto(`${STUDIO}/`);
    await expect(page).toHaveURL(`${STUDIO}/sign-in`);
    await expect(page.getByTestId("sign-in-no-accounts")).toContainText("no account yet");
    expect(await axeViolations(page)).toEqual([]);
    expect(await workflowsStatus(script, {})).toBe(401);
  });

  await test.step("the first account is made on the loopback-only first-run page", async () => {
    await page.getByTestId("sign-in-setup-link").click();
    await expect(page.getByTestId("setup-page")).toBeVisible();
    await page.getByTestId("setup-email").fill("ada@example.com");
    await page.getByTestId("setup-name").fill("Ada Lovelace");
    await page.getByTestId("setup-password").fill("analytical-engine");
    await page.getByTestId("setup-confirm").fill("analytical-engin");
    await page.getByTestId("setup-submit").click();
    await expect(page.getByText("The two passwords differ.")).toBeVisible();
    await expect(page.getByTestId("setup-confirm")).toBeFocused();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByTestId("setup-confirm").fill("analytical-engine");
    await page.getByTestId("setup-submit").click();
    await expect(page.getByTestId("home")).toBeVisible();
    await expect(page.getByTestId("account-name")).toHaveAttribute("title", /ada@example\.com/);
    const setupAgain = await page.request.get(`${STUDIO}/setup`);
    expect(setupAgain.status()).toBe(404);
    await signOut(page);
    await page.goto(`${STUDIO}/`);
    await expect(page).toHaveURL(`${STUDIO}/sign-in`);
  });

  await test.step("rath user create makes a second account; it signs in by keyboard and returns to the page asked for", async () => {
    const created = spawnSync(process.execPath, ["bin/rath.mjs", "user", "create", "--email", "grace@example.com", "--name", "Grace Hopper", "--password-stdin", "--db", DATABASE_PATH], {
      input: "cobol-1959-compiler\n",
      encoding: "utf8",
      env: { ...process.env, DATABASE_URL: "" },
      timeout: 60_000,
    });
    expect(created.stderr).toBe("");
    expect(created.stdout).toContain("created account grace@example.com (Grace Hopper)");

    await page.goto(`${STUDIO}/settings`);
    await expect(page).toHaveURL(`${STUDIO}/sign-in?next=%2Fsettings`);
    await expect(page.getByTestId("sign-in-email")).toBeFocused();
    await page.keyboard.type("grace@example.com");
    await page.keyboard.press("Tab");
    await page.keyboard.type("wrong-password");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("sign-in-error")).toHaveText("wrong email or password");
    await expect(page.getByTestId("sign-in-password")).toBeFocused();
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.type("cobol-1959-compiler");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${STUDIO}/settings`);
    await expect(page.getByTestId("api-keys-panel")).toBeVisible();
    await expect(page.getByTestId("api-keys-empty")).toBeVisible();
  });

  let key = "";
  await test.step("an API key made in settings opens the API to a script, shown once", async () => {
    await page.getByTestId("api-key-name-input").fill("e2e script");
    await page.getByTestId("api-key-name-input").press("Enter");
    await expect(page.getByTestId("api-key-secret")).toHaveText(/^rath_[A-Za-z0-9_-]{43}$/);
    key = (await page.getByTestId("api-key-secret").textContent()) ?? "";
    await expect(page.getByTestId("api-key-row")).toHaveCount(1);
    await expect(page.getByTestId("api-key-row")).toContainText(key.slice(0, 12));
    await expect(page.getByTestId("api-key-last-used")).toHaveText("never");
    expect(await axeViolations(page, '[data-testid="api-keys-panel"]')).toEqual([]);

    expect(await workflowsStatus(script, { authorization: `Bearer ${key}` })).toBe(200);
    expect(await workflowsStatus(script, {})).toBe(401);
    const run = await script.post(`${STUDIO}/api/v1/runs`, { headers: { authorization: `Bearer ${key}` }, data: { spec: { bogus: true }, input: "x" } });
    expect(run.status()).not.toBe(401);

    await page.getByTestId("api-key-done").click();
    await expect(page.getByTestId("api-key-created")).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId("api-key-last-used")).not.toHaveText("never");
    await expect(page.getByText(key)).toHaveCount(0);
  });

  await test.step("revoking the key (after confirming) closes the API to it", async () => {
    await page.getByTestId("api-key-revoke").click();
    await expect(page.getByTestId("api-key-revoke-dialog")).toBeVisible();
    await page.getByTestId("api-key-revoke-confirm").click();
    await expect(page.getByTestId("api-keys-empty")).toBeVisible();
    expect(await workflowsStatus(script, { authorization: `Bearer ${key}` })).toBe(401);
  });

  await test.step("signing out closes the studio again", async () => {
    await page.goto(`${STUDIO}/`);
    await expect(page.getByTestId("home")).toBeVisible();
    await signOut(page);
    await page.goto(`${STUDIO}/runs/run_anything`);
    await expect(page).toHaveURL(`${STUDIO}/sign-in?next=%2Fruns%2Frun_anything`);
  });
  await script.dispose();
});
