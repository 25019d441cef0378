/**
 * Embedded mode through the real start-up path: Next.js calls `register()` from instrumentation.ts with
 * NEXT_RUNTIME=nodejs. On a SQLite file that does not exist yet (nor its directory) it creates the file, applies
 * every checked-in migration, and starts the in-process worker, which executes queued runs without any request:
 * runs queued after start-up, and runs an earlier server process left queued.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { register } from "../../instrumentation";
import { openDatabase } from "../db/database";
import { defaultMigrationsDirectory, readMigrations } from "../db/migrator";
import { getRun } from "../db/run-store";
import { sharedDatabase } from "../services/shared-database";
import { stopSharedRuntime } from "../services/shared-runtime";
import { allEvents } from "./testing/canonical-graph";
import { linearSpec, queueRun } from "./testing/engine-fixtures";
import { waitFor } from "./testing/spawn-worker";

const directory = mkdtempSync(path.join(os.tmpdir(), "rath-embedded-start-"));
const filePath = path.join(directory, "nested", ".rath", "studio.db");
const NAMES = ["DATABASE_URL", "RATH_DB_PATH", "RATH_EMBEDDED_WORKER", "RATH_IN_PROCESS_WORKER", "NEXT_RUNTIME"] as const;
const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
const spec = linearSpec([{ id: "only", directive: {} }]);

beforeAll(() => {
  for (const name of NAMES) delete process.env[name];
  process.env.RATH_DB_PATH = filePath;
  process.env.NEXT_RUNTIME = "nodejs";
});

afterAll(async () => {
  await stopSharedRuntime();
  for (const name of NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  rmSync(directory, { recursive: true, force: true });
});

async function waitForSuccess(runId: string): Promise<void> {
  const database = await sharedDatabase();
  await waitFor(async () => (await getRun(database, runId))?.status === "succeeded", 20_000, `run ${runId} to succeed`);
}

describe("embedded mode start-up (instrumentation register)", () => {
  it("creates the SQLite file, applies every migration, and the in-process worker executes a queued run", async () => {
    expect(existsSync(filePath)).toBe(false);
    await register();
    expect(existsSync(filePath)).toBe(true);

    const database = await sharedDatabase();
    expect(database.provider).toBe("sqlite");
    const applied = await database.client.$queryRawUnsafe<Array<{ name: string }>>("SELECT name FROM _rath_migrations ORDER BY name");
    const files = readMigrations(defaultMigrationsDirectory("sqlite")).map((file) => file.name);
    expect(files.length).toBeGreaterThan(0);
    expect(applied.map((row) => row.name)).toEqual(files);

    const run = await queueRun(database, spec, { input: "no request needed" });
    await waitForSuccess(run.id);
    const claims = (await allEvents(database, run.id)).filter((event) => event.type === "run.claimed");
    expect(claims).toHaveLength(1);
    expect(String(claims[0]?.payload.worker_id)).toContain(`:${process.pid}:`);
  }, 40_000);

  it("executes a run an earlier server process left queued, at start-up", async () => {
    await stopSharedRuntime();
    const earlier = await openDatabase({ url: `file:${filePath}` });
    const run = await queueRun(earlier, spec, { input: "left queued" });
    await earlier.close();

    await register();
    await waitForSuccess(run.id);
    const database = await sharedDatabase();
    expect(((await getRun(database, run.id))?.output as { text: string }).text).toContain("left queued");
  }, 40_000);
});
