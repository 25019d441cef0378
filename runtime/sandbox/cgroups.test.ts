import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { cgroupSupport, createCallCgroup, shellQuote } from "./cgroups";

const support = await cgroupSupport();
if (!support.tracking) console.warn(`[skip] cgroup tests skipped: ${support.notes.join("; ")}`);
if (support.tracking && !support.processes) console.warn(`[skip] pids.max test skipped: ${support.notes.join("; ")}`);

/** Runs a shell script inside the call's cgroups; resolves with its stdout and stderr. */
function runInside(enterScript: string, script: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("/bin/sh", ["-c", `${enterScript} && exec /bin/sh -c ${shellQuote(script)}`], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    child.on("close", () => resolve({ stdout, stderr }));
  });
}

describe("call cgroups", () => {
  it.skipIf(!support.tracking)("hold a setsid escape as a member, kill it, and remove the leaves", async () => {
    const cgroup = await createCallCgroup();
    expect(cgroup).not.toBeNull();
    const { stdout } = await runInside(cgroup!.enterScript, "setsid sleep 30 > /dev/null 2>&1 & echo $!");
    const escaped = Number(stdout.trim());
    expect(await cgroup!.members()).toContain(escaped);
    await cgroup!.remove();
    expect(await cgroup!.members()).toEqual([]);
    const stat = await readFile(`/proc/${escaped}/stat`, "utf8").catch(() => "");
    expect(stat === "" || /\) [ZX] /.test(stat), stat).toBe(true);
  });

  it.skipIf(!support.processes)("cap the number of processes with pids.max", async () => {
    const cgroup = await createCallCgroup({ processes: 16 });
    expect(cgroup?.limitsProcesses).toBe(true);
    try {
      const { stdout, stderr } = await runInside(cgroup!.enterScript, "i=0; while [ $i -lt 40 ]; do sleep 30 > /dev/null 2>&1 & i=$((i+1)); done; echo started=$i");
      expect(stdout).not.toContain("started=40");
      expect(stderr).toMatch(/fork/i);
    } finally {
      await cgroup!.remove();
    }
  });
});
