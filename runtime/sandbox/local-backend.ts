import type { SandboxBackend, SandboxOpenOptions, BackendAvailability } from "./backend";
import type { SandboxSpec } from "./handle";
import { prepareWorkspace } from "./workspace-directory";
import { WorkspaceHandle } from "./workspace-handle";

/**
 * A handle whose commands run as ordinary host processes in the workspace directory. File tools are
 * confined to the workspace; commands are not (only the policy's command lists guard them).
 */
export class LocalHandle extends WorkspaceHandle {
  constructor(options: { hostDir: string; environment: Record<string, string>; timeoutMs: number | null; ownsWorkingDir: boolean }) {
    super({ backend: "local", innerDir: options.hostDir, ...options });
  }

  protected wrapCommand(argv: readonly string[]): string[] {
    return [...argv];
  }
}

/** Hands out handles for the `local` backend: a working directory on this host. Always available. */
export class LocalBackend implements SandboxBackend {
  readonly name = "local";

  async available(): Promise<BackendAvailability> {
    return { ok: true };
  }

  async open(spec: SandboxSpec | null, options: SandboxOpenOptions = {}): Promise<LocalHandle> {
    const workspace = await prepareWorkspace(spec, options.temporaryPrefix ?? "rath-local-");
    return new LocalHandle({
      hostDir: workspace.hostDir,
      environment: spec?.env ?? {},
      timeoutMs: spec?.timeout_seconds ? spec.timeout_seconds * 1000 : null,
      ownsWorkingDir: workspace.owned,
    });
  }
}
