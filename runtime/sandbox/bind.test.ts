import { access } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { isRathError } from "../errors";
import { Session } from "../session/session";
import { SandboxBackendRegistry, sandboxBackends } from "./backends";
import { bindSandbox } from "./bind";
import { LocalBackend } from "./local-backend";
import type { WorkspaceHandle } from "./workspace-handle";

describe("bindSandbox", () => {
  it("opens a handle for an unbound session and leaves a bound one as it is", async () => {
    const unbound = Session.create("user", "hi");
    const bound = await bindSandbox(unbound);
    expect(unbound.handle).toBeNull();
    expect(bound.id).toBe(unbound.id);
    expect(bound.handle?.backend).toBe("local");
    expect(bound.handle?.refcount).toBe(1);
    expect(await bindSandbox(bound)).toBe(bound);
    await bound.release();
    expect(bound.handle?.closed).toBe(true);
  });

  it("shares the handle with forks and closes it after the last release", async () => {
    const bound = await bindSandbox(Session.create("user", "hi"));
    const fork = bound.fork();
    expect(fork.handle).toBe(bound.handle);
    expect(bound.handle?.refcount).toBe(2);
    const directory = bound.handle!.workingDir;
    await bound.release();
    expect(fork.handle?.closed).toBe(false);
    await fork.release();
    expect(fork.handle?.closed).toBe(true);
    await expect(access(directory)).rejects.toThrow();
  });

  it("uses the placement's spec (working_dir, timeout)", async () => {
    const session = await bindSandbox(Session.create("user", "hi").to("local", { timeout_seconds: 0.3 }));
    await expect((session.handle as WorkspaceHandle).exec("sleep 3")).rejects.toMatchObject({ kind: "timeout" });
    await session.release();
  });

  it("refuses an unknown backend, listing the known ones", async () => {
    const error = await bindSandbox(Session.create("user", "hi").to("docker")).catch((caught: unknown) => caught);
    expect(isRathError(error, "sandbox_unavailable")).toBe(true);
    expect((error as Error).message).toBe("unknown sandbox backend 'docker'; available: local, bwrap");
  });

  it("looks backends up in the registry it is given", async () => {
    const registry = new SandboxBackendRegistry([new LocalBackend()]);
    expect(registry.names()).toEqual(["local"]);
    expect(sandboxBackends.names()).toEqual(["local", "bwrap"]);
    await expect(bindSandbox(Session.create("user", "hi").to("bwrap"), registry)).rejects.toThrow("available: local");
  });
});
