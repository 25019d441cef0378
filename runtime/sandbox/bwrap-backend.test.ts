import { createServer, type Server } from "node:net";
import { access } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isRathError } from "../errors";
import { bwrapAvailability, reportBwrapSkip } from "../tools/test-support";
import { ToolFailure } from "../tools/types";
import { BWRAP_WORKSPACE, BwrapBackend } from "./bwrap-backend";
import { DEFAULT_SANDBOX_LIMITS } from "./limits";
import { LocalBackend } from "./local-backend";
import type { WorkspaceHandle } from "./workspace-handle";

const missing = !bwrapAvailability.ok;

/** A node one-liner that prints "connected" or the connect error code for 127.0.0.1:port. */
function connectProbe(port: number): string[] {
  const script = `const s=require('net').connect(${port},'127.0.0.1');s.on('connect',()=>{console.log('connected');s.destroy()});s.on('error',e=>console.log(e.code))`;
  return ["node", "-e", script];
}

describe("bwrap backend", () => {
  let server: Server;
  let port = 0;
  let bwrap: WorkspaceHandle;
  let local: WorkspaceHandle;

  beforeAll(async () => {
    reportBwrapSkip();
    server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    port = typeof address === "object" && address ? address.port : 0;
    local = await new LocalBackend().open(null);
    if (!missing) bwrap = await new BwrapBackend().open(null);
  });

  afterAll(async () => {
    server.close();
    await local.close();
    await bwrap?.close();
  });

  it("says clearly when bwrap is missing, naming the apt package", async () => {
    const backend = new BwrapBackend({ executableName: "bwrap-not-installed-rath" });
    const availability = await backend.available();
    expect(availability.ok).toBe(false);
    expect(availability.reason).toContain("apt-get install -y bubblewrap");
    const error = await backend.open(null).catch((caught: unknown) => caught);
    expect(isRathError(error, "sandbox_unavailable")).toBe(true);
    expect((error as Error).message).toContain("bubblewrap");
  });

  it.skipIf(missing)("reaches a host TCP port from local but not from bwrap (no network)", async () => {
    const fromLocal = await local.exec(connectProbe(port));
    const fromBwrap = await bwrap.exec(connectProbe(port));
    expect(fromLocal.stdout.trim()).toBe("connected");
    expect(fromBwrap.stdout.trim()).toBe("ECONNREFUSED");
  });

  it.skipIf(missing)("cannot reach PostgreSQL on 127.0.0.1:5432 inside bwrap", async () => {
    const fromBwrap = await bwrap.exec(connectProbe(5432));
    expect(fromBwrap.stdout.trim()).not.toBe("connected");
  });

  it.skipIf(missing)("reads the host root but cannot write it", async () => {
    const hostname = await bwrap.exec("cat /etc/hostname");
    expect(hostname.exitCode).toBe(0);
    expect(hostname.stdout.trim().length).toBeGreaterThan(0);
    const write = await bwrap.exec("touch /usr/rath-bwrap-write-test");
    expect(write.exitCode).not.toBe(0);
    expect(write.stderr).toContain("Read-only file system");
    await expect(access("/usr/rath-bwrap-write-test")).rejects.toThrow();
  });

  it.skipIf(missing)("writes the workspace, which the host sees, at /tmp/workspace", async () => {
    const result = await bwrap.exec("pwd; echo inside > made-inside.txt");
    expect(result.stdout).toBe(`${BWRAP_WORKSPACE}\n`);
    expect((await bwrap.readFile("made-inside.txt")).toString()).toBe("inside\n");
  });

  it.skipIf(missing)("has a private /tmp and cannot see other processes", async () => {
    const result = await bwrap.exec("ls /tmp; ls /proc | grep -c '^[0-9]'");
    const [tmpListing, processCount] = result.stdout.trim().split("\n");
    expect(tmpListing).toBe("workspace");
    expect(Number(processCount)).toBeLessThan(5);
  });

  it.skipIf(missing)("times out and refuses work once closed", async () => {
    const handle = await new BwrapBackend().open({ image: null, entrypoint: null, env: { GREETING: "hi" }, timeout_seconds: 0.5, working_dir: null });
    expect((await handle.exec('echo "$GREETING"')).stdout).toBe("hi\n");
    await expect(handle.exec("sleep 5")).rejects.toMatchObject({ kind: "timeout" });
    await handle.close();
    const error = await handle.exec("true").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolFailure);
    expect((error as ToolFailure).kind).toBe("sandbox_closed");
  });

  it.skipIf(missing)("runs tools as uid 65534 with no capabilities and a minimal environment", async () => {
    process.env.RATH_BWRAP_ENV_SECRET = "do-not-leak";
    try {
      const result = await bwrap.exec("id -u; id -g; whoami; grep -E '^Cap(Eff|Prm|Bnd|Amb)' /proc/self/status; env");
      const lines = result.stdout.trim().split("\n");
      expect(lines.slice(0, 3)).toEqual(["65534", "65534", "sandbox"]);
      expect(lines.slice(3, 7).map((line) => line.split(/\s+/)[1])).toEqual(["0000000000000000", "0000000000000000", "0000000000000000", "0000000000000000"]);
      const names = lines.slice(7).map((line) => line.split("=")[0]);
      expect(names.filter((name) => !["PATH", "HOME", "TMPDIR", "LANG", "USER", "TZ", "PWD", "SHLVL", "_"].includes(name ?? ""))).toEqual([]);
    } finally {
      delete process.env.RATH_BWRAP_ENV_SECRET;
    }
  });

  it.skipIf(missing)("mounts system directories, a minimal /etc without shadow files, and the workspace; nothing else of the host", async () => {
    const project = process.cwd();
    const result = await bwrap.exec(
      `ls /; echo ---; for p in /etc/shadow /etc/gshadow /root /home /var ${project} /etc/passwd; do test -e $p && echo "present $p" || echo "absent $p"; done; echo ---; cat /etc/passwd`,
    );
    const [rootListing = "", presence = "", passwd = ""] = result.stdout.split("---\n");
    expect(rootListing.trim().split("\n").sort()).toEqual(expect.arrayContaining(["bin", "dev", "etc", "proc", "tmp", "usr"]));
    expect(rootListing).not.toMatch(/^(root|home|var|opt|srv|work|mnt|media|boot|run)$/m);
    expect(presence.trim().split("\n")).toEqual([
      "absent /etc/shadow",
      "absent /etc/gshadow",
      "absent /root",
      "absent /home",
      "absent /var",
      `absent ${project}`,
      "present /etc/passwd",
    ]);
    expect(passwd).toContain("sandbox:x:65534:65534:");
    expect(passwd.trim().split("\n")).toHaveLength(2);
    const remount = await bwrap.exec("mount -o remount,bind,rw / 2>&1; echo rc=$?; touch /new-file 2>&1; echo rc=$?");
    expect(remount.stdout).not.toContain("rc=0");
  });

  it.skipIf(missing)("sets the per-process limits: address space, CPU time, file size, no core files", async () => {
    const result = await bwrap.exec("cat /proc/self/limits", { timeoutMs: 5_000 });
    const limit = (label: string): string => new RegExp(`^${label}\\s+(\\S+)\\s+(\\S+)`, "m").exec(result.stdout)?.slice(1, 3).join("/") ?? "missing";
    expect(limit("Max address space")).toBe(`${DEFAULT_SANDBOX_LIMITS.memoryBytes}/${DEFAULT_SANDBOX_LIMITS.memoryBytes}`);
    expect(limit("Max cpu time")).toBe("6/6");
    expect(limit("Max file size")).toBe(`${DEFAULT_SANDBOX_LIMITS.fileSizeBytes}/${DEFAULT_SANDBOX_LIMITS.fileSizeBytes}`);
    expect(limit("Max core file size")).toBe("0/0");
  });

  it.skipIf(missing)("stops a command that prints past the output limit, keeping the capture limit", async () => {
    const handle = await new BwrapBackend({ limits: { outputBytes: 1024 * 1024 } }).open(null);
    try {
      const result = await handle.exec("yes", { outputLimitBytes: 1000, timeoutMs: 20_000 });
      expect([result.stdout.length, result.truncated, result.exitCode]).toEqual([1000, true, null]);
      expect(result.stderr).toContain("printed more than 1048576 bytes and was stopped");
    } finally {
      await handle.close();
    }
  });

  it.skipIf(missing)("says which limits this machine cannot enforce", async () => {
    const withoutCgroups = await new BwrapBackend({ cgroups: false }).available();
    expect(withoutCgroups.ok).toBe(true);
    const notes = (withoutCgroups.notes ?? []).join("\n");
    if (process.getuid?.() === 0) expect(notes).toContain("process count is not limited: the server runs as root");
    else expect(notes).not.toContain("process count is not limited");
    expect(notes).toContain("memory is limited per process");
  });
});
