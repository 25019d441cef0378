import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const helloAgent = path.join(root, "server/engine/spec/examples/hello-agent.json");
const directory = mkdtempSync(path.join(os.tmpdir(), "rath-cli-timeout-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function rath(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const environment = { ...process.env };
  delete environment.DATABASE_URL;
  const result = spawnSync(process.execPath, [path.join(root, "bin/rath.mjs"), "run", ...args], { cwd: directory, env: environment, encoding: "utf8", timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("rath run --timeout-ms", () => {
  it("refuses a timeout that is not a positive whole number (exit 2)", () => {
    const result = rath([helloAgent, "--timeout-ms", "soon"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("--timeout-ms expects a positive whole number of milliseconds; found 'soon'");
  });

  it("ends a run whose deadline passed before it ran as timed_out (exit 1), and lets a run with time to spare succeed", () => {
    const database = path.join(directory, "timeout.db");
    const late = rath([helloAgent, "--input", "hi", "--timeout-ms=1", "--json", "--db", database]);
    expect(late.stderr).toBe("");
    expect(late.status).toBe(1);
    const printed = JSON.parse(late.stdout) as { status: string; output: unknown; error: { code: string } };
    expect(printed).toMatchObject({ status: "timed_out", output: null, error: { code: "run_timeout" } });

    const inTime = rath([helloAgent, "--input", "hi", "--timeout-ms", "60000", "--json", "--db", database]);
    expect(inTime.status).toBe(0);
    expect((JSON.parse(inTime.stdout) as { status: string }).status).toBe("succeeded");
  });
});
