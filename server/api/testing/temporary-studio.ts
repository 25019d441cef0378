/**
 * The process environment of a studio for route tests: a fresh SQLite file in its own temp directory, the given
 * variables set (undefined deletes one), and afterwards the shared runtime stopped, every touched variable put
 * back and the directory removed. Call it at module or describe level; it registers the vitest hooks itself.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { stopSharedRuntime } from "../../services/shared-runtime";

/** Variables every studio test sets or clears, so none leaks in from the calling shell. */
const ALWAYS = ["DATABASE_URL", "RATH_DB_PATH", "RATH_IN_PROCESS_WORKER", "RATH_HOST", "RATH_AUTH"];

export function useTemporaryStudio(prefix: string, variables: Record<string, string | undefined> = {}): void {
  const directory = mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  const names = [...new Set([...ALWAYS, ...Object.keys(variables)])];
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  beforeAll(() => {
    delete process.env.DATABASE_URL;
    process.env.RATH_DB_PATH = path.join(directory, "studio.db");
    for (const [name, value] of Object.entries(variables)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  afterAll(async () => {
    await stopSharedRuntime();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(directory, { recursive: true, force: true });
  });
}
