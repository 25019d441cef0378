import { access, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ToolFailure } from "../tools/types";
import { LocalBackend } from "./local-backend";

describe("local backend", () => {
  it("is always available", async () => {
    await expect(new LocalBackend().available()).resolves.toEqual({ ok: true });
  });

  it("makes a temporary workspace and deletes it on close", async () => {
    const handle = await new LocalBackend().open(null);
    const directory = handle.workingDir;
    await handle.writeFile("a/b.txt", "x");
    await access(path.join(directory, "a/b.txt"));
    await handle.close();
    await expect(access(directory)).rejects.toThrow();
  });

  it("uses and keeps the spec's working directory, creating it if missing", async () => {
    const parent = await mkdtemp(path.join(tmpdir(), "rath-local-spec-"));
    const workingDir = path.join(parent, "work");
    const handle = await new LocalBackend().open({ image: null, entrypoint: null, env: {}, timeout_seconds: null, working_dir: workingDir });
    expect(handle.workingDir).toBe(workingDir);
    expect((await handle.exec("pwd")).stdout.trim()).toBe(workingDir);
    await handle.close();
    await access(workingDir);
    await rm(parent, { recursive: true, force: true });
  });

  it("refuses every operation with sandbox_closed after the last release", async () => {
    const handle = await new LocalBackend().open(null);
    handle.retain();
    await handle.release();
    expect(handle.closed).toBe(false);
    await handle.release();
    expect(handle.closed).toBe(true);
    const operations = [() => handle.exec("true"), () => handle.readFile("x"), () => handle.writeFile("x", "y"), () => handle.list("."), () => handle.exists("x")];
    for (const operation of operations) {
      const error = await operation().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ToolFailure);
      expect((error as ToolFailure).kind).toBe("sandbox_closed");
    }
  });
});

describe.each([
  ["cgroups where writable", true],
  ["the /proc tracker", false],
] as const)("local backend kills every process a call started, with %s", (_label, cgroups) => {
  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1_800));

  it("when the call ends: background, nohup and setsid children die with it", async () => {
    const handle = await new LocalBackend({ cgroups }).open(null);
    try {
      const result = await handle.exec(
        "(sleep 1; echo x > late-background) & nohup sh -c 'sleep 1; echo x > late-nohup' >/dev/null 2>&1 & setsid sh -c 'sleep 1; echo x > late-setsid' >/dev/null 2>&1 & echo returned",
      );
      expect(result.stdout).toBe("returned\n");
      await settle();
      expect(await handle.list(".")).toEqual([]);
    } finally {
      await handle.close();
    }
  });

  it("when a quick call ends before its root is tracked, its setsid child dies with it", async () => {
    for (let round = 0; round < 3; round += 1) {
      const handle = await new LocalBackend({ cgroups }).open(null);
      try {
        expect((await handle.exec("setsid sh -c 'sleep 1; echo x > late-quick' >/dev/null 2>&1 & echo returned")).stdout).toBe("returned\n");
        await settle();
        expect(await handle.list(".")).toEqual([]);
      } finally {
        await handle.close();
      }
    }
  });

  it("when the call times out, a setsid escape included", async () => {
    const handle = await new LocalBackend({ cgroups }).open(null);
    try {
      await expect(handle.exec("setsid sh -c 'sleep 1; echo x > late-timeout' >/dev/null 2>&1 & sleep 30", { timeoutMs: 300 })).rejects.toMatchObject({ kind: "timeout" });
      await settle();
      expect(await handle.exists("late-timeout")).toBe(false);
    } finally {
      await handle.close();
    }
  });
});

describe("local backend environment", () => {
  it("gives commands a minimal environment: no server variables, HOME is the workspace", async () => {
    process.env.RATH_LOCAL_ENV_SECRET = "do-not-leak";
    const handle = await new LocalBackend().open(null);
    try {
      const names = (await handle.exec("env")).stdout
        .trim()
        .split("\n")
        .map((line) => line.split("=")[0]);
      const allowed = new Set(["PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "TZ", "PYENV_ROOT", "PWD", "SHLVL", "_", "RATH_SANDBOX_CALL"]);
      expect(names.filter((name) => !allowed.has(name ?? ""))).toEqual([]);
      expect((await handle.exec('echo "$HOME"')).stdout.trim()).toBe(handle.workingDir);
    } finally {
      delete process.env.RATH_LOCAL_ENV_SECRET;
      await handle.close();
    }
  });
});
