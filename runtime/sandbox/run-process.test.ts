import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OUTPUT_LIMIT_BYTES, runProcess } from "./run-process";

let directory = "";
const environment = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "rath-run-process-"));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** True while the process runs; a zombie (killed, waiting for a parent that never reaps it) counts as dead. */
async function alive(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) [ZX] /.test(stat);
  } catch {
    return false;
  }
}

describe("runProcess", () => {
  it("captures stdout, stderr, the exit code and feeds stdin", async () => {
    const outcome = await runProcess(["/bin/sh", "-c", "cat; echo err >&2; exit 4"], { cwd: directory, env: environment, timeoutMs: 5000, stdin: "in" });
    expect([outcome.stdout, outcome.stderr, outcome.exitCode, outcome.timedOut, outcome.truncated]).toEqual(["in", "err\n", 4, false, false]);
  });

  it("keeps the first 64 KiB of a stream by default and flags the cut", async () => {
    const outcome = await runProcess(["/bin/sh", "-c", "head -c 100000 /dev/zero | tr '\\0' b"], { cwd: directory, env: environment, timeoutMs: 5000 });
    expect(outcome.stdout.length).toBe(DEFAULT_OUTPUT_LIMIT_BYTES);
    expect(DEFAULT_OUTPUT_LIMIT_BYTES).toBe(65536);
    expect(outcome.truncated).toBe(true);
  });

  it("kills the whole process group on timeout, background children included", async () => {
    const pidFile = path.join(directory, "child.pid");
    const started = performance.now();
    const outcome = await runProcess(["/bin/sh", "-c", `sleep 30 & echo $! > ${pidFile}; wait`], { cwd: directory, env: environment, timeoutMs: 300 });
    expect(outcome.timedOut).toBe(true);
    expect(performance.now() - started).toBeLessThan(5000);
    const childPid = Number((await readFile(pidFile, "utf8")).trim());
    expect(childPid).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await alive(childPid)).toBe(false);
  });

  it("kills the group when the signal aborts", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const outcome = await runProcess(["/bin/sh", "-c", "sleep 30"], { cwd: directory, env: environment, timeoutMs: 10_000, signal: controller.signal });
    expect([outcome.aborted, outcome.timedOut]).toEqual([true, false]);
  });

  it("reports a missing executable as a spawn error instead of rejecting", async () => {
    const outcome = await runProcess(["/no/such/program"], { cwd: directory, env: environment, timeoutMs: 1000 });
    expect(outcome.spawnError?.code).toBe("ENOENT");
  });

  it("passes only the given environment", async () => {
    process.env.RATH_RUN_PROCESS_SECRET = "leak";
    try {
      const outcome = await runProcess(["/bin/sh", "-c", 'echo "[$RATH_RUN_PROCESS_SECRET][$ONLY]"'], {
        cwd: directory,
        env: { ...environment, ONLY: "given" },
        timeoutMs: 5000,
      });
      expect(outcome.stdout).toBe("[][given]\n");
    } finally {
      delete process.env.RATH_RUN_PROCESS_SECRET;
    }
  });
});
