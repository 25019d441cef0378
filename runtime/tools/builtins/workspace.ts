import path from "node:path";
import { WorkspaceHandle, type PathOptions } from "../../sandbox/workspace-handle";
import { ToolFailure, type ToolContext } from "../types";

/**
 * Bytes of stdout and of stderr a built-in keeps (the sandbox default is 64 KiB); small enough that a result
 * with both streams stays under the 48,000-character result limit, so the model sees the output, cut.
 */
export const BUILTIN_OUTPUT_LIMIT_BYTES = 20_000;

/** The session's bound workspace sandbox, or a tool failure saying why there is none. */
export function requireWorkspace(context: ToolContext): WorkspaceHandle {
  const sandbox = context.sandbox;
  if (!sandbox) {
    throw new ToolFailure(
      "sandbox_closed",
      `no sandbox is bound to session ${context.session.id} (placement '${context.session.placement.backend}'); expected bindSandbox(session) before dispatch`,
    );
  }
  if (sandbox.closed) {
    throw new ToolFailure("sandbox_closed", `sandbox ${sandbox.id} (${sandbox.backend}) is closed; expected an open sandbox`);
  }
  if (!(sandbox instanceof WorkspaceHandle)) {
    throw new ToolFailure("unsupported_tool", `sandbox backend '${sandbox.backend}' has no workspace operations`, { backend: sandbox.backend });
  }
  return sandbox;
}

/** The policy's extra filesystem roots, as the sandbox's path options. */
export function pathOptions(context: ToolContext): PathOptions {
  return { extraRoots: context.policy?.filesystemRoots ?? [] };
}

/** All filesystem tools share one key namespace, so any mix of operations on one path runs in call order. */
export function pathResourceKey(requested: string): string {
  const normalised = path.posix.normalize(requested.replace(/\\/g, "/")).replace(/(.)\/+$/, "$1");
  return `fs:${normalised}`;
}
