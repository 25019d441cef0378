import { tmpdir } from "node:os";
import type { SandboxBackend, SandboxOpenOptions, BackendAvailability } from "./backend";
import type { SandboxSpec } from "./handle";
import { DEFAULT_OUTPUT_STOP_BYTES } from "./run-process";
import { prepareWorkspace } from "./workspace-directory";
import { WorkspaceHandle, type PreparedCommand } from "./workspace-handle";

/** Host variables a local command inherits; everything else of the server's environment stays outside. */
const INHERITED_ENVIRONMENT = ["PATH", "LANG", "LC_ALL", "TZ", "PYENV_ROOT"] as const;

/** Options of the local backend. */
export interface LocalBackendOptions {
  /** Hold each call's processes in a cgroup where one is writable (default true); false uses the /proc tracker. */
  readonly cgroups?: boolean;
}

/**
 * A handle whose commands run as ordinary host processes, as the server's user, in the workspace directory. File
 * tools are confined to the workspace; commands are not: they can read and write whatever the server's user can,
 * reach the network and see other processes (only the policy's command lists guard them). What this backend does
 * guarantee: a minimal environment, and that every process a call started is killed when the call ends.
 */
export class LocalHandle extends WorkspaceHandle {
  constructor(
    options: { hostDir: string; environment: Record<string, string>; timeoutMs: number | null; ownsWorkingDir: boolean },
    private readonly useCgroups: boolean,
  ) {
    super({ backend: "local", innerDir: options.hostDir, ...options });
  }

  protected baseEnvironment(): Record<string, string> {
    const inherited: Record<string, string> = {};
    for (const name of INHERITED_ENVIRONMENT) {
      const value = process.env[name];
      if (value !== undefined) inherited[name] = value;
    }
    return { PATH: "/usr/local/bin:/usr/bin:/bin", ...inherited, HOME: this.location.innerDir, TMPDIR: tmpdir() };
  }

  protected prepareCommand(argv: readonly string[]): Promise<PreparedCommand> {
    return Promise.resolve({
      argv: [...argv],
      containment: { cgroups: this.useCgroups, trackWithoutCgroup: true },
      outputStopBytes: DEFAULT_OUTPUT_STOP_BYTES,
    });
  }
}

/** Hands out handles for the `local` backend: a working directory on this host. Always available. */
export class LocalBackend implements SandboxBackend {
  readonly name = "local";

  constructor(private readonly options: LocalBackendOptions = {}) {}

  async available(): Promise<BackendAvailability> {
    return { ok: true };
  }

  async open(spec: SandboxSpec | null, options: SandboxOpenOptions = {}): Promise<LocalHandle> {
    const workspace = await prepareWorkspace(spec, options.temporaryPrefix ?? "rath-local-");
    return new LocalHandle(
      {
        hostDir: workspace.hostDir,
        environment: spec?.env ?? {},
        timeoutMs: spec?.timeout_seconds && spec.timeout_seconds > 0 ? spec.timeout_seconds * 1000 : null,
        ownsWorkingDir: workspace.owned,
      },
      this.options.cgroups ?? true,
    );
  }
}
