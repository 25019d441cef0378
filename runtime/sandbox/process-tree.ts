/**
 * Finds the processes a call started when no cgroup can hold them: it polls /proc while the call runs and keeps
 * every process that descends from the call's root (even after it was re-parented by `setsid` and a double fork),
 * that is in the root's process group or session, or whose environment carries the call's marker variable (which
 * `setsid`, `nohup` and daemonising keep). At the end everything found is killed (pid reuse is ruled out by each
 * process's start time). A process that clears its environment and detaches between two polls can escape; that is
 * why cgroups are used wherever they are writable.
 */
import { readdir, readFile } from "node:fs/promises";

/** The environment variable whose value marks a call's processes. */
export const CALL_MARKER_VARIABLE = "RATH_SANDBOX_CALL";

interface ProcessStat {
  readonly pid: number;
  readonly parent: number;
  readonly group: number;
  readonly session: number;
  readonly startTime: number;
  readonly zombie: boolean;
}

async function readStat(pid: number): Promise<ProcessStat | null> {
  const text = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (text === null) return null;
  // The command name may hold spaces and parentheses: fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return {
    pid,
    zombie: fields[0] === "Z" || fields[0] === "X",
    parent: Number(fields[1]),
    group: Number(fields[2]),
    session: Number(fields[3]),
    startTime: Number(fields[19]),
  };
}

async function allPids(): Promise<number[]> {
  const entries = await readdir("/proc").catch(() => [] as string[]);
  return entries.filter((entry) => /^\d+$/.test(entry)).map(Number);
}

async function carriesMarker(pid: number, marker: string): Promise<boolean> {
  const environment = await readFile(`/proc/${pid}/environ`).catch(() => null);
  return environment !== null && environment.includes(marker);
}

/** Tracks one call's processes through /proc and kills them all at the end. */
export class ProcessTreeTracker {
  private readonly tracked = new Map<number, number>();
  private root: ProcessStat | null = null;
  private timer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | null = null;

  /** `marker` is `NAME=value` as it appears in /proc/<pid>/environ. */
  constructor(
    private readonly marker: string,
    private readonly pollMs = 50,
  ) {}

  /** Starts tracking from the call's root process (the leader of its own process group). */
  async attach(pid: number): Promise<void> {
    // A quick command can be gone before it is attached: its pid still names the process group and session it led
    // (it was spawned detached), and its marker still finds every process it left behind.
    this.root = (await readStat(pid)) ?? { pid, parent: 0, group: pid, session: pid, startTime: 0, zombie: true };
    this.tracked.set(pid, this.root.startTime);
    this.timer = setInterval(() => {
      this.scanning ??= this.scan().finally(() => {
        this.scanning = null;
      });
    }, this.pollMs);
    this.timer.unref();
  }

  /** Pids found so far that are still running. */
  async members(): Promise<number[]> {
    await this.scan();
    const alive: number[] = [];
    for (const [pid, startTime] of this.tracked) {
      const stat = await readStat(pid);
      if (stat && stat.startTime === startTime && !stat.zombie) alive.push(pid);
    }
    return alive;
  }

  private async scan(): Promise<void> {
    const root = this.root;
    if (!root) return;
    const stats = (await Promise.all((await allPids()).map(readStat))).filter((stat): stat is ProcessStat => stat !== null);
    const candidates = stats.filter((stat) => stat.startTime >= root.startTime && !this.tracked.has(stat.pid));
    let grew = true;
    while (grew) {
      grew = false;
      for (const stat of candidates) {
        if (this.tracked.has(stat.pid)) continue;
        const parentStart = this.tracked.get(stat.parent);
        const related = (parentStart !== undefined && parentStart <= stat.startTime) || stat.group === root.pid || stat.session === root.pid;
        if (related) {
          this.tracked.set(stat.pid, stat.startTime);
          grew = true;
        }
      }
    }
    for (const stat of candidates) {
      if (!this.tracked.has(stat.pid) && stat.pid !== process.pid && (await carriesMarker(stat.pid, this.marker))) this.tracked.set(stat.pid, stat.startTime);
    }
  }

  /** Kills every tracked process until none is left (bounded), then stops polling. */
  async killAll(): Promise<void> {
    try {
      for (let round = 0; round < 50; round += 1) {
        const alive = await this.members();
        if (alive.length === 0) return;
        for (const pid of alive) {
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            // Gone already.
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      clearInterval(this.timer);
    }
  }
}
