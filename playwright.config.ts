/**
 * End-to-end tests of the production build in Debian's Chromium (browsers cannot be downloaded here). Each worker
 * (E2E_WORKERS, default 2) has a web server of its own (port E2E_PORT + 2·worker slot, see e2e/studio-server.ts) with
 * a fresh SQLite database (deleted before start), so the examples are seeded exactly as on a user's first start;
 * spec files run one after another within a worker. E2E_SKIP_BUILD=1 reuses an existing `.next` build (when
 * `npm run build` just ran); otherwise the build runs once, before the servers start.
 */
import { defineConfig } from "@playwright/test";
import { E2E_WORKERS, studioDatabaseFile, studioPort } from "./e2e/studio-server";

const build = process.env.E2E_SKIP_BUILD === "1" ? "" : "npx next build && ";
// The server must run its embedded worker whatever the calling shell says.
const { RATH_EMBEDDED_WORKER: _embedded, RATH_IN_PROCESS_WORKER: _inProcess, ...inherited } = process.env;

const readyURL = (port: number) => `http://127.0.0.1:${port}/api/trpc/workflows.list`;
// Waits until the first server answers: it runs the build, so the others start from the finished `.next`.
const afterFirstServer = `node -e "(async () => { for (;;) { try { if ((await fetch(process.argv[1])).ok) return; } catch {} await new Promise((r) => setTimeout(r, 500)); } })()" ${readyURL(studioPort(0))} && `;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/e2e",
  fullyParallel: false,
  // One worker per server: `--workers` above E2E_WORKERS would leave a worker without a server.
  workers: E2E_WORKERS,
  retries: 0,
  forbidOnly: process.env.CI === "true",
  timeout: 90_000,
  expect: { timeout: 30_000 },
  reporter: [["list"]],
  use: {
    // Evaluated in each worker process too, where TEST_PARALLEL_INDEX names the worker's slot (hence its server).
    baseURL: `http://127.0.0.1:${studioPort()}`,
    browserName: "chromium",
    // A failed test keeps its trace (DOM snapshots, network, console) and a screenshot of the moment it failed; the
    // trace's screencast is off: recording it for every test cost a third of the suite's time on 2 cores.
    trace: { mode: "retain-on-failure", screenshots: false },
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.E2E_CHROMIUM ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  webServer: Array.from({ length: E2E_WORKERS }, (_, slot) => {
    const port = studioPort(slot);
    const quoted = JSON.stringify(studioDatabaseFile(port));
    // The first server builds (unless E2E_SKIP_BUILD=1); the others then start from the same `.next`.
    const ready = slot === 0 ? build : build === "" ? "" : afterFirstServer;
    return {
      // `npm start`'s launcher: RATH_HOST=127.0.0.1, so the studio runs as users run it (loopback, no sign-in).
      command: `rm -f ${quoted} ${quoted}-wal ${quoted}-shm ${quoted}-journal && ${ready}node bin/rath-serve.mjs start --port ${port}`,
      url: readyURL(port),
      reuseExistingServer: false,
      timeout: 600_000,
      stdout: "pipe" as const,
      stderr: "pipe" as const,
      env: {
        ...(inherited as Record<string, string>),
        RATH_DB_PATH: studioDatabaseFile(port),
        RATH_HOST: "127.0.0.1",
        RATH_AUTH: "",
        DATABASE_URL: "",
        NEXT_TELEMETRY_DISABLED: "1",
      },
    };
  }),
});
