import { createServer, type Server } from "node:net";
import { access } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isRathError } from "../errors";
import { bwrapAvailability, reportBwrapSkip } from "../tools/test-support";
import { ToolFailure } from "../tools/types";
import { BWRAP_WORKSPACE, BwrapBackend } from "./bwrap-backend";
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
});
