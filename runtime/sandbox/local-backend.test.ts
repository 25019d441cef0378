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
