/**
 * The unconfined-tools notice: on the configured server it appears exactly when `system.info` says tools are not
 * confined; a second studio started with RATH_SANDBOX_BACKEND=local (its worker's studio port + 1, its own database) shows it on
 * every page, at 1280 and 390 px, and it cannot be dismissed. A server started with a bad value refuses to start.
 */
import { expect, test } from "@playwright/test";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { studioPort } from "./studio-server";

const PORT = studioPort();
const LOCAL_PORT = PORT + 1;

test("the configured studio shows the notice exactly when tools are unconfined", async ({ page, request }) => {
  const answer = await request.get("/api/trpc/system.info");
  expect(answer.status()).toBe(200);
  const info = ((await answer.json()) as { result: { data: { confined: boolean; sandboxBackend: string } } }).result.data;
  expect(["local", "bwrap"]).toContain(info.sandboxBackend);
  await page.goto("/");
  await expect(page.getByTestId("nav-home")).toBeVisible();
  if (info.confined) {
    // Rendered after system.info answers: wait for that answer before asserting the absence.
    await page.waitForLoadState("networkidle");
    await expect(page.getByTestId("sandbox-notice")).toHaveCount(0);
  } else {
    await expect(page.getByTestId("sandbox-notice")).toBeVisible();
  }
});

test.describe("a studio started with RATH_SANDBOX_BACKEND=local", () => {
  let server: ChildProcess | undefined;
  let directory = "";
  let logs = "";

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    directory = mkdtempSync(path.join(os.tmpdir(), "rath-e2e-local-"));
    server = spawn(process.execPath, ["bin/rath-serve.mjs", "start", "--port", String(LOCAL_PORT)], {
      env: { ...process.env, RATH_SANDBOX_BACKEND: "local", RATH_DB_PATH: path.join(directory, "studio.db"), RATH_HOST: "127.0.0.1", RATH_AUTH: "", DATABASE_URL: "", NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    server.stdout?.on("data", (data: Buffer) => (logs += data.toString()));
    server.stderr?.on("data", (data: Buffer) => (logs += data.toString()));
    const deadline = Date.now() + 90_000;
    for (;;) {
      const ready = await fetch(`http://127.0.0.1:${LOCAL_PORT}/api/trpc/system.info`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`the local-backend studio did not start:\n${logs}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });

  test.afterAll(async () => {
    if (server?.pid !== undefined && server.exitCode === null) process.kill(-server.pid, "SIGTERM");
    rmSync(directory, { recursive: true, force: true });
  });

  test("logs a warning at start and shows the notice on every page, at 1280 and 390 px", async ({ page }) => {
    expect(logs).toContain("[rath] WARNING: tools run UNCONFINED on the local backend (RATH_SANDBOX_BACKEND=local)");
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      for (const pathname of ["/", "/no-such-page"]) {
        await page.goto(`http://127.0.0.1:${LOCAL_PORT}${pathname}`);
        const notice = page.getByTestId("sandbox-notice");
        await expect(notice).toBeVisible();
        await expect(notice).toContainText("Tools run unconfined.");
        await expect(notice).toContainText("RATH_SANDBOX_BACKEND=local");
        await expect(notice.getByRole("button")).toHaveCount(0);
        const box = await notice.boundingBox();
        expect(box?.width).toBeLessThanOrEqual(width);
        // Nothing of the page scrolls sideways because of it.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
    }
  });
});

test("a studio refuses to start with an invalid RATH_SANDBOX_BACKEND, naming the variable", () => {
  const result = spawnSync(process.execPath, ["bin/rath-serve.mjs", "start", "--port", String(LOCAL_PORT)], {
    env: { ...process.env, RATH_SANDBOX_BACKEND: "docker", RATH_HOST: "127.0.0.1", DATABASE_URL: "", NEXT_TELEMETRY_DISABLED: "1" },
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(`${result.stdout}${result.stderr}`).toContain('RATH_SANDBOX_BACKEND must be "local" or "bwrap"');
  expect(result.status).toBe(1);
});
