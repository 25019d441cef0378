import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultContext, type RunContext } from "../context";
import type { RuntimeEvent } from "../events";
import { sandboxBackends } from "../sandbox/backends";
import { bindSandbox } from "../sandbox/bind";
import type { WorkspaceHandle } from "../sandbox/workspace-handle";
import type { ToolCall } from "../session/chunk";
import { Session } from "../session/session";

/** Whether bubblewrap works here, and why not; tests of the bwrap backend skip (and say why) when it does not. */
export const bwrapAvailability = await sandboxBackends.get("bwrap").available();

/** Under CI=true the bwrap backend is required: its tests fail instead of skipping (as PostgreSQL's do). */
export const bwrapRequired = process.env.CI === "true";

/** Prints why bwrap tests are skipped, once per file that asks; under CI=true a missing bwrap fails the file instead. */
export function reportBwrapSkip(): void {
  if (bwrapAvailability.ok) return;
  const reason = bwrapAvailability.reason ?? "unavailable";
  if (bwrapRequired) throw new Error(`bwrap is required under CI=true but unavailable: ${reason}`);
  console.warn(`[skip] bwrap sandbox tests skipped: ${reason}`);
}

/** The backends every shared test runs on. */
export const BACKENDS = ["local", "bwrap"] as const;
export type BackendName = (typeof BACKENDS)[number];

/** True when a backend's tests should skip: only bwrap can be missing, and never under CI=true (there they fail). */
export function backendMissing(backend: BackendName): boolean {
  return backend === "bwrap" && !bwrapAvailability.ok && !bwrapRequired;
}

let callNumber = 0;

/** A model tool call with JSON-encoded arguments (or a raw argument string). */
export function toolCall(name: string, args: unknown): ToolCall {
  callNumber += 1;
  return {
    id: `call_${callNumber}`,
    type: "function",
    function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) },
  };
}

/** A run context that records events. */
export function recordingContext(): { run: RunContext; events: RuntimeEvent[] } {
  const events: RuntimeEvent[] = [];
  return { run: defaultContext({ emit: (event) => events.push(event) }), events };
}

/**
 * A session bound to a fresh sandbox of `backend`, seeded with the files the shared table expects:
 * notes/hello.txt, a symlink escaping to /etc, a symlink inside the workspace, and a dangling symlink.
 */
export async function seededSession(backend: BackendName, spec: { timeout_seconds?: number } = {}): Promise<{ session: Session; handle: WorkspaceHandle }> {
  const session = await bindSandbox(Session.create("user", "table").to(backend, spec));
  const handle = session.handle as WorkspaceHandle;
  const root = handle.location.hostDir;
  await mkdir(path.join(root, "notes"), { recursive: true });
  await writeFile(path.join(root, "notes", "hello.txt"), "hello world\n");
  await symlink("/etc", path.join(root, "escape-link"));
  await symlink("notes/hello.txt", path.join(root, "inner-link"));
  await symlink(path.join(tmpdir(), "rath-no-such-dir-for-tests", "target"), path.join(root, "dangling"));
  return { session, handle };
}

/** A directory outside any workspace holding secret.txt (for escapes and extra filesystem roots). */
export async function outsideDirectory(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), "rath-outside-"));
  await writeFile(path.join(directory, "secret.txt"), "outside secret\n");
  return directory;
}

/** Parses a tool_result content. */
export function parseContent(content: string): Record<string, unknown> {
  return JSON.parse(content) as Record<string, unknown>;
}
