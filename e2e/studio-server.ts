/**
 * Where the studio under test listens and keeps its database. playwright.config.ts starts one production server per
 * Playwright worker, each on its own port with its own fresh SQLite file: worker slot `i` (TEST_PARALLEL_INDEX, which
 * Playwright sets in each worker process before it loads the config and the specs) talks to the server on
 * E2E_PORT + 2·i. Spec files stay serial within a worker, so a server sees one spec file at a time, as with one worker.
 * The extra servers some specs start themselves take their worker's port + 1, + 50 and + 51, so two workers' ports
 * never meet.
 */
import os from "node:os";
import path from "node:path";

/** The first server's port (E2E_PORT, default 3917). */
export const E2E_BASE_PORT = Number(process.env.E2E_PORT ?? 3917);

/** How many workers, hence servers (E2E_WORKERS, default 2). */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));

/** The port of the studio that worker slot `parallelIndex` uses (by default the calling worker's). */
export function studioPort(parallelIndex = Number(process.env.TEST_PARALLEL_INDEX ?? 0)): number {
  return E2E_BASE_PORT + 2 * parallelIndex;
}

/** The SQLite file of the studio on `port` (deleted before that server starts). */
export function studioDatabaseFile(port = studioPort()): string {
  return path.join(os.tmpdir(), `rath-e2e-${port}`, "studio.db");
}
