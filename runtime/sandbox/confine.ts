import { constants } from "node:fs";
import { lstat, open, readlink, realpath, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { ToolFailure } from "../tools/types";

/** Where a handle's workspace lives on the host and what processes inside the sandbox call it. */
export interface WorkspaceLocation {
  /** Real (symlink-free) host path of the workspace directory. */
  readonly hostDir: string;
  /** The workspace path as commands inside the sandbox see it (equal to `hostDir` for `local`). */
  readonly innerDir: string;
}

function isInside(candidate: string, root: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

function denied(requested: string, why: string): ToolFailure {
  return new ToolFailure("tool_policy_denied", `path '${requested}' ${why}; expected a path inside the workspace`, {
    path: requested,
  });
}

/**
 * Resolves symlinks in `candidate` (an absolute, normalised host path) as far as the path exists, and
 * refuses dangling symlinks (following one could create a file anywhere).
 */
async function resolveExisting(candidate: string, requested: string): Promise<string> {
  let existing = candidate;
  const missing: string[] = [];
  for (;;) {
    try {
      const real = await realpath(existing);
      return missing.length === 0 ? real : path.join(real, ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") {
        throw new ToolFailure("os_error", `cannot resolve path '${requested}': ${(error as Error).message}`, { code });
      }
      const link = await lstat(existing).catch(() => null);
      if (link?.isSymbolicLink()) throw denied(requested, "goes through a dangling symbolic link");
      const parent = path.dirname(existing);
      if (parent === existing) return candidate;
      missing.push(path.basename(existing));
      existing = parent;
    }
  }
}

/**
 * Turns a tool's path (relative to the workspace, or absolute) into a host path, and refuses it with
 * `tool_policy_denied` when it resolves outside the workspace and outside every extra root: `..`
 * segments, absolute paths elsewhere and symlinks (the realpath of the deepest existing ancestor) are all
 * judged by where they finally point. Absolute paths under `innerDir` are mapped onto the workspace.
 */
export async function resolveConfinedPath(
  requested: string,
  location: WorkspaceLocation,
  extraRoots: readonly string[] = [],
): Promise<string> {
  if (requested.includes("\0")) throw denied(requested, "contains a NUL byte");
  let candidate: string;
  if (path.isAbsolute(requested)) {
    const normalised = path.resolve(requested);
    candidate = isInside(normalised, location.innerDir)
      ? path.join(location.hostDir, path.relative(location.innerDir, normalised))
      : normalised;
  } else {
    candidate = path.resolve(location.hostDir, requested);
  }
  const resolved = await resolveExisting(candidate, requested);
  if (await isAllowed(resolved, location, extraRoots)) return resolved;
  throw denied(requested, "resolves outside the workspace");
}

async function isAllowed(resolved: string, location: WorkspaceLocation, extraRoots: readonly string[]): Promise<boolean> {
  if (isInside(resolved, location.hostDir)) return true;
  for (const root of extraRoots) {
    const realRoot = await realpath(path.resolve(root)).catch(() => path.resolve(root));
    if (isInside(resolved, realRoot)) return true;
  }
  return false;
}

/**
 * Opens a path that `resolveConfinedPath` returned, without following a symlink in its last component, and
 * checks where the open file really is (`/proc/self/fd`), so a symlink swapped in after resolution cannot
 * redirect the read or write outside the workspace.
 */
export async function openConfined(
  resolved: string,
  flags: number,
  requested: string,
  location: WorkspaceLocation,
  extraRoots: readonly string[] = [],
): Promise<FileHandle> {
  let file: FileHandle;
  try {
    file = await open(resolved, flags | constants.O_NOFOLLOW, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") throw denied(requested, "became a symbolic link while it was being opened");
    throw error;
  }
  const actual = await readlink(`/proc/self/fd/${file.fd}`).catch(() => null);
  if (actual !== null && !(await isAllowed(actual, location, extraRoots))) {
    await file.close();
    throw denied(requested, "was redirected outside the workspace while it was being opened");
  }
  return file;
}

/** How a host path is shown to the model: relative to the workspace when inside it, absolute otherwise. */
export function displayPath(hostPath: string, location: WorkspaceLocation): string {
  if (!isInside(hostPath, location.hostDir)) return hostPath;
  const relative = path.relative(location.hostDir, hostPath);
  return relative === "" ? "." : relative.split(path.sep).join("/");
}
