/**
 * A missing bubblewrap under CI=true fails the sandbox tests (as a missing PostgreSQL does) instead of skipping
 * them; without CI the bwrap cases skip and the reason is printed. Proven by running the escape suite in a child
 * vitest told to use a bubblewrap executable that does not exist (RATH_BWRAP_EXECUTABLE).
 */
import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";

const MISSING = "bwrap-not-installed-here";

function escapeSuiteWithoutBwrap(ci: boolean): { status: number | null; output: string } {
  const environment: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !name.startsWith("VITEST") && name !== "CI") environment[name] = value;
  environment.RATH_BWRAP_EXECUTABLE = MISSING;
  environment.NO_COLOR = "1";
  delete environment.FORCE_COLOR;
  if (ci) environment.CI = "true";
  const result = spawnSync(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "tests/sandbox-escape.test.ts", "-t", "read /etc/shadow"], {
    env: environment as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 240_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

it("under CI=true, a missing bwrap fails the escape suite with the reason", () => {
  const { status, output } = escapeSuiteWithoutBwrap(true);
  expect(output).toContain(`bwrap is required under CI=true but unavailable: bubblewrap ('${MISSING}') is not installed or not on PATH`);
  expect(status).toBe(1);
}, 250_000);

it("without CI, the bwrap cases skip and the reason is printed; the local cases still run", () => {
  const { status, output } = escapeSuiteWithoutBwrap(false);
  expect(output).toContain(`[skip] bwrap sandbox tests skipped: bubblewrap ('${MISSING}') is not installed or not on PATH`);
  expect(output).toMatch(/1 passed/);
  expect(output).toMatch(/skipped/);
  expect(status).toBe(0);
}, 250_000);
