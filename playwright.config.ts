/**
 * End-to-end tests of the production build in Debian's Chromium (browsers cannot be downloaded here). The web
 * server gets a fresh SQLite database (deleted before start), so the examples are seeded exactly as on a
 * user's first start. E2E_SKIP_BUILD=1 reuses an existing `.next` build (when `npm run build` just ran).
 */
import { defineConfig } from "@playwright/test";
import os from "node:os";
import path from "node:path";

const PORT = Number(process.env.E2E_PORT ?? 3917);
const DATABASE_PATH = path.join(os.tmpdir(), `rath-e2e-${PORT}`, "studio.db");
const build = process.env.E2E_SKIP_BUILD === "1" ? "" : "npx next build && ";
const quoted = JSON.stringify(DATABASE_PATH);
// The server must run its embedded worker whatever the calling shell says.
const { RATH_EMBEDDED_WORKER: _embedded, RATH_IN_PROCESS_WORKER: _inProcess, ...inherited } = process.env;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: process.env.CI === "true",
  timeout: 90_000,
  expect: { timeout: 30_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: "chromium",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.E2E_CHROMIUM ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  webServer: {
    // `npm start`'s launcher: RATH_HOST=127.0.0.1, so the studio runs as users run it (loopback, no sign-in).
    command: `rm -f ${quoted} ${quoted}-wal ${quoted}-shm ${quoted}-journal && ${build}node bin/rath-serve.mjs start --port ${PORT}`,
    url: `http://127.0.0.1:${PORT}/api/trpc/workflows.list`,
    reuseExistingServer: false,
    timeout: 600_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      ...(inherited as Record<string, string>),
      RATH_DB_PATH: DATABASE_PATH,
      RATH_HOST: "127.0.0.1",
      RATH_AUTH: "",
      DATABASE_URL: "",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
