import { access, constants, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { RathError } from "../errors";
import type { BackendAvailability, SandboxBackend, SandboxOpenOptions } from "./backend";
import { BWRAP_WORKSPACE, bwrapArguments, bwrapLayout, type BwrapLayout } from "./bwrap-layout";
import { cgroupSupport } from "./cgroups";
import type { SandboxSpec } from "./handle";
import { DEFAULT_SANDBOX_LIMITS, prlimitArguments, processRlimitFor, SandboxLimits } from "./limits";
import { runProcess } from "./run-process";
import { prepareWorkspace } from "./workspace-directory";
import { WorkspaceHandle, type PreparedCommand } from "./workspace-handle";

export { BWRAP_WORKSPACE } from "./bwrap-layout";

/** The Debian/Ubuntu package that provides `bwrap`. */
export const BWRAP_PACKAGE = "bubblewrap";

/** Options of the bwrap backend. */
export interface BwrapBackendOptions {
  /** The bubblewrap executable: a name looked up on PATH, or a path (default RATH_BWRAP_EXECUTABLE, else `bwrap`). */
  readonly executableName?: string;
  /** Limits of every command (defaults: `DEFAULT_SANDBOX_LIMITS`). */
  readonly limits?: Partial<SandboxLimits>;
  /** Use cgroups for per-call process and memory limits where writable (default true). */
  readonly cgroups?: boolean;
}

interface Prepared {
  readonly bwrap: string;
  readonly prlimit: string;
  readonly layout: BwrapLayout;
}

/** A handle whose commands run inside bubblewrap; file operations act on the bound workspace directory. */
export class BwrapHandle extends WorkspaceHandle {
  constructor(
    private readonly prepared: Prepared,
    private readonly limits: SandboxLimits,
    private readonly useCgroups: boolean,
    options: { hostDir: string; environment: Record<string, string>; timeoutMs: number | null; ownsWorkingDir: boolean },
  ) {
    super({ backend: "bwrap", innerDir: BWRAP_WORKSPACE, ...options });
  }

  protected baseEnvironment(): Record<string, string> {
    return {
      PATH: this.prepared.layout.path,
      HOME: BWRAP_WORKSPACE,
      TMPDIR: "/tmp",
      LANG: process.env.LANG ?? "C.UTF-8",
      USER: "sandbox",
      ...(process.env.TZ === undefined ? {} : { TZ: process.env.TZ }),
    };
  }

  protected async prepareCommand(argv: readonly string[], timeoutMs: number): Promise<PreparedCommand> {
    return {
      argv: await commandLine(this.prepared, this.limits, this.location.hostDir, timeoutMs, argv),
      containment: { cgroups: this.useCgroups, trackWithoutCgroup: false, processes: this.limits.processes, memoryBytes: this.limits.memoryBytes },
      outputStopBytes: this.limits.outputBytes,
    };
  }
}

/** `prlimit <limits> bwrap <arguments> -- argv`. */
async function commandLine(prepared: Prepared, limits: SandboxLimits, hostDir: string, timeoutMs: number, argv: readonly string[]): Promise<string[]> {
  return [
    prepared.prlimit,
    ...prlimitArguments(limits, timeoutMs, await processRlimitFor(limits)),
    "--",
    prepared.bwrap,
    ...bwrapArguments(prepared.layout, hostDir, limits.temporaryBytes),
    "--",
    ...argv,
  ];
}

async function findExecutable(name: string): Promise<string | null> {
  if (name.includes("/")) {
    return access(name, constants.X_OK).then(
      () => path.resolve(name),
      () => null,
    );
  }
  const directories = [...(process.env.PATH ?? "").split(path.delimiter), "/usr/bin", "/bin"];
  for (const directory of directories) {
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
 * The isolating backend: bubblewrap with new user, pid, network, ipc and uts namespaces, no capabilities, an
 * unprivileged uid, only system directories (read-only), a minimal /etc and the workspace (writable) mounted,
 * and limits on processes, memory, CPU time, file size and output. `available()` runs one sandbox with exactly
 * these settings to prove they work here (cached) and lists any limit this machine cannot enforce in `notes`.
 */
export class BwrapBackend implements SandboxBackend {
  readonly name = "bwrap";
  private probe: Promise<{ availability: BackendAvailability; prepared: Prepared | null }> | null = null;
  private readonly limits: SandboxLimits;
  private readonly executableName: string;
  private readonly useCgroups: boolean;

  constructor(options: BwrapBackendOptions = {}) {
    this.executableName = options.executableName ?? (process.env.RATH_BWRAP_EXECUTABLE?.trim() || "bwrap");
    this.limits = SandboxLimits.parse({ ...DEFAULT_SANDBOX_LIMITS, ...options.limits });
    this.useCgroups = options.cgroups ?? true;
  }

  private check(): Promise<{ availability: BackendAvailability; prepared: Prepared | null }> {
    this.probe ??= (async () => {
      const bwrap = await findExecutable(this.executableName);
      if (!bwrap) {
        return {
          prepared: null,
          availability: {
            ok: false,
            reason: `bubblewrap ('${this.executableName}') is not installed or not on PATH; install it with \`apt-get install -y ${BWRAP_PACKAGE}\``,
          },
        };
      }
      const prlimit = await findExecutable("prlimit");
      if (!prlimit) {
        return { prepared: null, availability: { ok: false, reason: "prlimit (util-linux) is not installed; it sets the sandbox's resource limits" } };
      }
      const prepared: Prepared = { bwrap, prlimit, layout: await bwrapLayout() };
      const probeDirectory = await mkdtemp(path.join(tmpdir(), "rath-bwrap-probe-"));
      const outcome = await runProcess(await commandLine(prepared, this.limits, probeDirectory, 10_000, ["/bin/true"]), {
        cwd: probeDirectory,
        env: { PATH: prepared.layout.path },
        timeoutMs: 10_000,
        containment: { cgroups: this.useCgroups, processes: this.limits.processes, memoryBytes: this.limits.memoryBytes },
      }).finally(() => rm(probeDirectory, { recursive: true, force: true }));
      if (outcome.exitCode !== 0) {
        const why = outcome.spawnError?.message ?? (outcome.stderr.trim() || `exit code ${String(outcome.exitCode)}`);
        return { prepared: null, availability: { ok: false, reason: `bwrap is installed at ${bwrap} but cannot create a sandbox here: ${why}` } };
      }
      return { prepared, availability: { ok: true, notes: await this.limitNotes() } };
    })();
    return this.probe;
  }

  /** What this machine cannot enforce, in words (empty when every limit holds). */
  private async limitNotes(): Promise<string[]> {
    const support = this.useCgroups ? await cgroupSupport() : { processes: false, memory: false, notes: ["cgroups are turned off for this backend"] };
    const notes: string[] = [];
    const root = process.getuid?.() === 0;
    if (!support.processes && root) {
      notes.push(
        `process count is not limited: the server runs as root, the kernel does not apply RLIMIT_NPROC to host uid 0, and no pids cgroup is writable (${support.notes.join("; ")})`,
      );
    }
    if (!support.memory) notes.push(`memory is limited per process (address space ${this.limits.memoryBytes} bytes), not for the sandbox as a whole`);
    return notes;
  }

  async available(): Promise<BackendAvailability> {
    return (await this.check()).availability;
  }

  async open(spec: SandboxSpec | null, options: SandboxOpenOptions = {}): Promise<BwrapHandle> {
    const { availability, prepared } = await this.check();
    if (!availability.ok || !prepared) {
      throw new RathError("sandbox_unavailable", `sandbox backend 'bwrap' is unavailable: ${availability.reason ?? "unknown reason"}`, {
        details: { backend: this.name, package: BWRAP_PACKAGE },
      });
    }
    const workspace = await prepareWorkspace(spec, options.temporaryPrefix ?? "rath-bwrap-");
    return new BwrapHandle(prepared, this.limits, this.useCgroups, {
      hostDir: workspace.hostDir,
      environment: spec?.env ?? {},
      timeoutMs: spec?.timeout_seconds && spec.timeout_seconds > 0 ? spec.timeout_seconds * 1000 : null,
      ownsWorkingDir: workspace.owned,
    });
  }
}
