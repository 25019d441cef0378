import { constants } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolFailure } from "../tools/types";
import { displayPath, openConfined, resolveConfinedPath, type WorkspaceLocation } from "./confine";

let base = "";
let location: WorkspaceLocation;
let outside = "";

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "rath-confine-")));
  const workspace = path.join(base, "workspace");
  outside = path.join(base, "outside");
  await mkdir(path.join(workspace, "sub"), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(outside, "secret"), "s");
  await symlink(outside, path.join(workspace, "out-link"));
  await symlink("sub", path.join(workspace, "in-link"));
  await symlink("../outside/secret", path.join(workspace, "sub", "relative-escape"));
  await symlink(path.join(outside, "missing"), path.join(workspace, "dangling"));
  location = { hostDir: workspace, innerDir: "/tmp/workspace" };
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function kindOf(requested: string, roots: string[] = []): Promise<string> {
  try {
    await resolveConfinedPath(requested, location, roots);
    return "allowed";
  } catch (error) {
    return error instanceof ToolFailure ? error.kind : "other";
  }
}

describe("resolveConfinedPath", () => {
  it("resolves relative paths, harmless .. and inner absolute paths into the workspace", async () => {
    await expect(resolveConfinedPath("sub/new/file.txt", location)).resolves.toBe(path.join(location.hostDir, "sub/new/file.txt"));
    await expect(resolveConfinedPath("sub/../a", location)).resolves.toBe(path.join(location.hostDir, "a"));
    await expect(resolveConfinedPath("/tmp/workspace/sub", location)).resolves.toBe(path.join(location.hostDir, "sub"));
    await expect(resolveConfinedPath("in-link/x", location)).resolves.toBe(path.join(location.hostDir, "sub/x"));
    await expect(resolveConfinedPath(".", location)).resolves.toBe(location.hostDir);
  });

  it.each([
    ["..", "parent"],
    ["sub/../../outside/secret", "nested .."],
    ["/etc/passwd", "absolute elsewhere"],
    ["/tmp/workspace/../etc", "inner absolute with .."],
    ["out-link/secret", "absolute symlink"],
    ["sub/relative-escape", "relative symlink"],
    ["dangling", "dangling symlink"],
    ["dangling/deeper", "below a dangling symlink"],
    ["a\0b", "NUL byte"],
  ])("denies %s (%s)", async (requested) => {
    expect(await kindOf(requested)).toBe("tool_policy_denied");
  });

  it("allows extra roots, judged by their real path", async () => {
    expect(await kindOf(path.join(outside, "secret"), [outside])).toBe("allowed");
    expect(await kindOf("out-link/secret", [outside])).toBe("allowed");
    expect(await kindOf(path.join(outside, "secret"), [path.join(base, "elsewhere")])).toBe("tool_policy_denied");
  });

  it("names the requested path in the denial", async () => {
    await expect(resolveConfinedPath("../x", location)).rejects.toMatchObject({ kind: "tool_policy_denied", message: expect.stringContaining("'../x'") });
  });
});

describe("displayPath", () => {
  it("shows workspace paths relative and others absolute", () => {
    expect(displayPath(path.join(location.hostDir, "sub", "a"), location)).toBe("sub/a");
    expect(displayPath(location.hostDir, location)).toBe(".");
    expect(displayPath("/etc/hosts", location)).toBe("/etc/hosts");
  });
});

describe("openConfined", () => {
  it("refuses a last component that became a symlink after resolution", async () => {
    const resolved = await resolveConfinedPath("swapped", location);
    await symlink(path.join(outside, "secret"), resolved);
    await expect(openConfined(resolved, constants.O_RDONLY, "swapped", location)).rejects.toMatchObject({ kind: "tool_policy_denied" });
  });

  it("refuses a file whose directory was swapped for a symlink out after resolution", async () => {
    const resolved = await resolveConfinedPath("moved/secret", location);
    await symlink(outside, path.join(location.hostDir, "moved"));
    await expect(openConfined(resolved, constants.O_RDONLY, "moved/secret", location)).rejects.toMatchObject({
      kind: "tool_policy_denied",
      message: expect.stringContaining("redirected outside the workspace"),
    });
  });

  it("opens a confined file", async () => {
    await writeFile(path.join(location.hostDir, "sub", "plain.txt"), "plain");
    const file = await openConfined(await resolveConfinedPath("sub/plain.txt", location), constants.O_RDONLY, "sub/plain.txt", location);
    expect((await file.readFile()).toString()).toBe("plain");
    await file.close();
  });
});
