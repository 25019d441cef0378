import { access, constants } from "node:fs/promises";
import path from "node:path";
import { RathError } from "../errors";
import type { BackendAvailability, SandboxBackend, SandboxOpenOptions } from "./backend";
import type { SandboxSpec } from "./handle";
import { runProcess } from "./run-process";
import { prepareWorkspace } from "./workspace-directory";
import { WorkspaceHandle } from "./workspace-handle";

/** Where the workspace appears inside a bubblewrap sandbox. */
export const BWRAP_WORKSPACE = "/tmp/workspace";

/** The Debian/Ubuntu package that provides `bwrap`. */
export const BWRAP_PACKAGE = "bubblewrap";

/**
 * bubblewrap flags: the host root read-only, a private /tmp with the workspace bound writable at
 * /tmp/workspace, every namespace unshared (so no network), and the sandbox dies with its parent.
 */
export function bwrapArguments(hostDir: string): string[] {
  return [
    "--ro-bind", "/", "/",
    "--tmpfs", "/tmp",
    "--bind", hostDir, BWRAP_WORKSPACE,
    "--chdir", BWRAP_WORKSPACE,
    "--unshare-all",
    "--die-with-parent",
    "--dev", "/dev",
    "--proc", "/proc",
  ];
}

/** A handle whose commands run inside bubblewrap; file operations act on the bound workspace directory. */
export class BwrapHandle extends WorkspaceHandle {
  constructor(
    private readonly executable: string,
    options: { hostDir: string; environment: Record<string, string>; timeoutMs: number | null; ownsWorkingDir: boolean },
  ) {
    super({ backend: "bwrap", innerDir: BWRAP_WORKSPACE, ...options });
  }

  protected wrapCommand(argv: readonly string[]): string[] {
    return [this.executable, ...bwrapArguments(this.location.hostDir), "--", ...argv];
  }
}

async function findExecutable(name: string): Promise<string | null> {
  for (const directory of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!directory) continue;
    const candidate = path.join(directory, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return null;
}

/**
 * The isolating backend: bubblewrap with a read-only root, a writable workspace and no network.
 * `available()` finds `bwrap` on PATH and runs one empty sandbox to prove it works here (cached).
 */
export class BwrapBackend implements SandboxBackend {
  readonly name = "bwrap";
  private probe: Promise<{ availability: BackendAvailability; executable: string | null }> | null = null;

  constructor(private readonly executableName = "bwrap") {}

  private check(): Promise<{ availability: BackendAvailability; executable: string | null }> {
    this.probe ??= (async () => {
      const executable = await findExecutable(this.executableName);
      if (!executable) {
        return {
          executable: null,
          availability: {
            ok: false,
            reason: `bubblewrap ('${this.executableName}') is not installed or not on PATH; install it with \`apt-get install -y ${BWRAP_PACKAGE}\``,
          },
        };
      }
      const outcome = await runProcess([executable, ...bwrapArguments("/"), "--", "/bin/true"], {
        cwd: "/",
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
        timeoutMs: 10_000,
      });
      if (outcome.exitCode !== 0) {
        const why = outcome.spawnError?.message ?? (outcome.stderr.trim() || `exit code ${String(outcome.exitCode)}`);
        return { executable, availability: { ok: false, reason: `bwrap is installed at ${executable} but cannot create a sandbox here: ${why}` } };
      }
      return { executable, availability: { ok: true } };
    })();
    return this.probe;
  }

  async available(): Promise<BackendAvailability> {
    return (await this.check()).availability;
  }

  async open(spec: SandboxSpec | null, options: SandboxOpenOptions = {}): Promise<BwrapHandle> {
    const { availability, executable } = await this.check();
    if (!availability.ok || !executable) {
      throw new RathError("sandbox_unavailable", `sandbox backend 'bwrap' is unavailable: ${availability.reason ?? "unknown reason"}`, {
        details: { backend: this.name, package: BWRAP_PACKAGE },
      });
    }
    const workspace = await prepareWorkspace(spec, options.temporaryPrefix ?? "rath-bwrap-");
    return new BwrapHandle(executable, {
      hostDir: workspace.hostDir,
      environment: spec?.env ?? {},
      timeoutMs: spec?.timeout_seconds ? spec.timeout_seconds * 1000 : null,
      ownsWorkingDir: workspace.owned,
    });
  }
}
