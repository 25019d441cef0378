import { randomUUID } from "node:crypto";
import { createCallCgroup, type CallCgroup } from "./cgroups";
import { CALL_MARKER_VARIABLE, ProcessTreeTracker } from "./process-tree";

/** How one call's processes are held together. */
export interface ContainmentOptions {
  /** Use cgroups where writable (default true); false forces the fallback, e.g. in tests of it. */
  readonly cgroups?: boolean;
  /** Without a cgroup, track descendants through /proc (local: true; bwrap needs not, its pid namespace holds them). */
  readonly trackWithoutCgroup?: boolean;
  /** Per-call limits to set on the cgroup when its hierarchy supports them. */
  readonly processes?: number;
  readonly memoryBytes?: number;
}

/**
 * Everything one call started, so it can all be killed when the call ends: its process group, plus its cgroups
 * (entered by a shell prologue before the command starts) or, without cgroups, a /proc tracker.
 */
export class CallContainment {
  private groupLeader: number | null = null;
  private attaching: Promise<void> | null = null;

  private constructor(
    private readonly cgroup: CallCgroup | null,
    private readonly tracker: ProcessTreeTracker | null,
    private readonly marker: string | null,
  ) {}

  /** Makes the containment of one call (creating its cgroups when they are used). */
  static async open(options: ContainmentOptions = {}): Promise<CallContainment> {
    const cgroup =
      options.cgroups === false
        ? null
        : await createCallCgroup({
            ...(options.processes === undefined ? {} : { processes: options.processes }),
            ...(options.memoryBytes === undefined ? {} : { memoryBytes: options.memoryBytes }),
          });
    if (cgroup || !options.trackWithoutCgroup) return new CallContainment(cgroup, null, null);
    const marker = randomUUID();
    return new CallContainment(null, new ProcessTreeTracker(`${CALL_MARKER_VARIABLE}=${marker}`), marker);
  }

  /** True when the kernel caps the call's process count through its cgroup. */
  get limitsProcesses(): boolean {
    return this.cgroup?.limitsProcesses ?? false;
  }

  /** True when the kernel caps the call's memory through its cgroup. */
  get limitsMemory(): boolean {
    return this.cgroup?.limitsMemory ?? false;
  }

  /** The argv to spawn: with cgroups, a shell that enters them and then execs `argv`. */
  wrap(argv: readonly string[]): string[] {
    if (!this.cgroup) return [...argv];
    return ["/bin/sh", "-c", `${this.cgroup.enterScript} && exec "$@"`, "rath-sandbox-call", ...argv];
  }

  /** Variables the call's environment must carry (the /proc tracker's marker). */
  environment(): Record<string, string> {
    return this.marker === null ? {} : { [CALL_MARKER_VARIABLE]: this.marker };
  }

  /** Starts following the spawned process (the leader of its own process group). */
  async attach(pid: number): Promise<void> {
    this.groupLeader = pid;
    this.attaching = this.tracker?.attach(pid) ?? null;
    await this.attaching;
  }

  /** Kills the process group and every process the cgroup or tracker holds. Never throws. */
  async killAll(): Promise<void> {
    if (this.groupLeader !== null) {
      try {
        process.kill(-this.groupLeader, "SIGKILL");
      } catch {
        // The group is gone.
      }
    }
    await this.cgroup?.killAll();
    // A quick call can end before the tracker has read its root: kill only once it has.
    await this.attaching;
    await this.tracker?.killAll();
  }

  /** Kills what is left and frees the cgroups. */
  async dispose(): Promise<void> {
    await this.killAll();
    await this.cgroup?.remove();
  }
}
