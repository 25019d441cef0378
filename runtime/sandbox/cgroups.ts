/**
 * Control groups for sandbox calls. Each call gets a leaf cgroup in every usable hierarchy; its command enters them
 * before it starts (a shell prologue writes `$$` into each `cgroup.procs`), so every descendant is a member however
 * it detaches (setsid, double fork), and a fork bomb meets `pids.max`. At the end of the call every member is
 * killed (`cgroup.kill` where the kernel has it, else SIGKILL to each member until none is left) and the leaves are
 * removed. Works with cgroup v2 and with v1 hierarchies (pids, memory), whichever this process may write; where
 * none is writable (a normal user without delegation, a read-only container mount) `callCgroups` says why and the
 * caller falls back to other means.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rmdirSync } from "node:fs";
import { access, mkdir, readdir, readFile, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";

/** One mounted hierarchy, with the directory (under this process's own cgroup) where call groups are made. */
interface Hierarchy {
  readonly version: 1 | 2;
  /** v1: the controllers of the mount; v2: the controllers enabled for our call groups. */
  readonly controllers: ReadonlySet<string>;
  /** The parent of this process's call groups (`<own cgroup>/rath-sandbox-<pid>`), created on discovery. */
  readonly parent: string;
}

/** What cgroups can do for sandbox calls on this machine. */
export interface CgroupSupport {
  /** Membership and killing work (at least one writable hierarchy). */
  readonly tracking: boolean;
  /** A per-call `pids.max` can be set. */
  readonly processes: boolean;
  /** A per-call memory limit can be set. */
  readonly memory: boolean;
  /** Why something is missing, for logs and the backend's availability notes. */
  readonly notes: readonly string[];
}

/** The cgroups of one call: the prologue that enters them, and the operations on their members. */
export interface CallCgroup {
  /** A shell fragment that moves the shell running it (`$$`) into every leaf; fails when it cannot. */
  readonly enterScript: string;
  readonly limitsProcesses: boolean;
  readonly limitsMemory: boolean;
  /** Process ids in the call's groups now. */
  members(): Promise<number[]>;
  /** Kills every member and waits until none is left (bounded). */
  killAll(): Promise<void>;
  /** Kills what is left and removes the leaves. */
  remove(): Promise<void>;
}

interface Discovery {
  readonly hierarchies: readonly Hierarchy[];
  readonly support: CgroupSupport;
}

const PARENT_PREFIX = "rath-sandbox-";
let discovery: Promise<Discovery> | null = null;

/** Finds the writable hierarchies once per process (cached). */
export function cgroupSupport(): Promise<CgroupSupport> {
  return discover().then((found) => found.support);
}

function discover(): Promise<Discovery> {
  discovery ??= discoverHierarchies();
  return discovery;
}

/**
 * Makes the cgroups of one call with the given limits, or null when no hierarchy is usable. Limits that no
 * hierarchy supports are left unset (the caller reads `limitsProcesses` / `limitsMemory`).
 */
export async function createCallCgroup(limits: { processes?: number; memoryBytes?: number } = {}): Promise<CallCgroup | null> {
  const { hierarchies } = await discover();
  if (hierarchies.length === 0) return null;
  const name = `call-${randomUUID()}`;
  const leaves: { hierarchy: Hierarchy; directory: string }[] = [];
  let limitsProcesses = false;
  let limitsMemory = false;
  try {
    for (const hierarchy of hierarchies) {
      const directory = path.join(hierarchy.parent, name);
      await mkdir(directory);
      leaves.push({ hierarchy, directory });
      if (limits.processes !== undefined && !limitsProcesses && hierarchy.controllers.has("pids")) {
        await writeFile(path.join(directory, "pids.max"), String(limits.processes));
        limitsProcesses = true;
      }
      if (limits.memoryBytes !== undefined && !limitsMemory && hierarchy.controllers.has("memory")) {
        const file = hierarchy.version === 2 ? "memory.max" : "memory.limit_in_bytes";
        await writeFile(path.join(directory, file), String(limits.memoryBytes));
        if (hierarchy.version === 2) await writeFile(path.join(directory, "memory.swap.max"), "0").catch(() => undefined);
        limitsMemory = true;
      }
    }
  } catch (error) {
    await Promise.all(leaves.map((leaf) => rmdir(leaf.directory).catch(() => undefined)));
    throw error;
  }
  return new Leaves(leaves, limitsProcesses, limitsMemory);
}

class Leaves implements CallCgroup {
  readonly enterScript: string;

  constructor(
    private readonly leaves: readonly { hierarchy: Hierarchy; directory: string }[],
    readonly limitsProcesses: boolean,
    readonly limitsMemory: boolean,
  ) {
    this.enterScript = leaves.map((leaf) => `echo $$ > ${shellQuote(path.join(leaf.directory, "cgroup.procs"))}`).join(" && ");
  }

  async members(): Promise<number[]> {
    const found = new Set<number>();
    for (const leaf of this.leaves) {
      for (const pid of await readProcs(leaf.directory)) found.add(pid);
    }
    return [...found];
  }

  async killAll(): Promise<void> {
    for (const leaf of this.leaves) {
      if (leaf.hierarchy.version === 2) await writeFile(path.join(leaf.directory, "cgroup.kill"), "1").catch(() => undefined);
    }
    // Members forked between a read and a kill are caught by the next round; killed processes cannot fork.
    for (let round = 0; round < 200; round += 1) {
      const pids = await this.members();
      if (pids.length === 0) return;
      for (const pid of pids) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
      await new Promise((resolve) => setTimeout(resolve, round < 10 ? 5 : 25));
    }
  }

  async remove(): Promise<void> {
    await this.killAll();
    for (const leaf of this.leaves) {
      for (let attempt = 0; attempt < 20; attempt += 1) {
        try {
          await rmdir(leaf.directory);
          break;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === "ENOENT") break;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      }
    }
  }
}

async function readProcs(directory: string): Promise<number[]> {
  try {
    const text = await readFile(path.join(directory, "cgroup.procs"), "utf8");
    return text
      .split("\n")
      .filter((line) => line.length > 0)
      .map(Number);
  } catch {
    return [];
  }
}

/** Single-quotes a string for /bin/sh. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

interface Mount {
  readonly mountPoint: string;
  readonly version: 1 | 2;
  readonly options: ReadonlySet<string>;
}

/** Unescapes the octal escapes (`\040` for a space) of /proc/self/mountinfo paths. */
function unescapeMountPath(value: string): string {
  return value.replace(/\\([0-7]{3})/g, (_match, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

async function cgroupMounts(): Promise<Mount[]> {
  const text = await readFile("/proc/self/mountinfo", "utf8").catch(() => "");
  const mounts: Mount[] = [];
  for (const line of text.split("\n")) {
    const [before, after] = line.split(" - ");
    if (!before || !after) continue;
    const fields = before.split(" ");
    const [type, , superOptions] = after.split(" ");
    const mountPoint = fields[4];
    if (!mountPoint || (type !== "cgroup" && type !== "cgroup2")) continue;
    mounts.push({
      mountPoint: unescapeMountPath(mountPoint),
      version: type === "cgroup2" ? 2 : 1,
      options: new Set((superOptions ?? "").split(",")),
    });
  }
  return mounts;
}

/** This process's cgroup path per hierarchy: "" for v2, the controller list (or name=...) for v1. */
async function ownCgroups(): Promise<Map<string, string>> {
  const text = await readFile("/proc/self/cgroup", "utf8").catch(() => "");
  const paths = new Map<string, string>();
  for (const line of text.split("\n")) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (match) paths.set(match[1] ?? "", match[2] ?? "/");
  }
  return paths;
}

function v1Key(options: ReadonlySet<string>): string | null {
  const controllers = ["pids", "memory", "cpu", "cpuacct", "cpuset", "freezer", "devices", "blkio", "net_cls", "net_prio", "perf_event", "hugetlb", "rdma", "misc"];
  const present = controllers.filter((controller) => options.has(controller));
  if (present.length > 0) return present.join(",");
  const name = [...options].find((option) => option.startsWith("name="));
  return name ?? null;
}

interface Candidate {
  readonly version: 1 | 2;
  readonly base: string;
  readonly controllers: ReadonlySet<string>;
}

async function candidates(): Promise<Candidate[]> {
  const own = await ownCgroups();
  const found: Candidate[] = [];
  for (const mount of await cgroupMounts()) {
    if (mount.version === 2) {
      const ownPath = own.get("");
      if (ownPath !== undefined) found.push({ version: 2, base: path.join(mount.mountPoint, ownPath), controllers: new Set() });
      continue;
    }
    const key = v1Key(mount.options);
    if (key === null) continue;
    // The kernel may list a v1 hierarchy's controllers in another order than the mount options: match as sets.
    const wanted = new Set(key.split(","));
    for (const [listed, ownPath] of own) {
      const parts = listed.split(",");
      if (parts.length !== wanted.size || !parts.every((part) => wanted.has(part))) continue;
      const controllers = new Set([...wanted].filter((controller) => !controller.startsWith("name=")));
      found.push({ version: 1, base: path.join(mount.mountPoint, ownPath), controllers });
    }
  }
  return found;
}

/**
 * Prepares the fewest hierarchies that give tracking plus pids and memory limits where possible: v2 first (it has
 * `cgroup.kill`), then v1 pids and memory, and only when none of those is writable any other v1 hierarchy.
 */
async function discoverHierarchies(): Promise<Discovery> {
  const notes: string[] = [];
  const all = await candidates();
  const preferred = all.filter((candidate) => candidate.version === 2 || candidate.controllers.has("pids") || candidate.controllers.has("memory"));
  const hierarchies: Hierarchy[] = [];
  const has = (controller: string): boolean => hierarchies.some((hierarchy) => hierarchy.controllers.has(controller));
  const attempt = async (candidate: Candidate): Promise<void> => {
    const label = candidate.version === 2 ? "v2" : `v1 (${[...candidate.controllers].join(",") || "named"})`;
    try {
      hierarchies.push(await prepareParent(candidate.version, candidate.base, candidate.controllers));
    } catch (error) {
      notes.push(`cgroup ${label} at ${candidate.base} is not usable: ${(error as Error).message}`);
    }
  };
  for (const candidate of preferred.sort((left, right) => right.version - left.version)) {
    const adds = candidate.version === 2 || [...candidate.controllers].some((controller) => (controller === "pids" || controller === "memory") && !has(controller));
    if (adds) await attempt(candidate);
  }
  for (const candidate of all) {
    if (hierarchies.length > 0) break;
    if (!preferred.includes(candidate)) await attempt(candidate);
  }
  const processes = has("pids");
  const memory = has("memory");
  if (hierarchies.length === 0) notes.push("no writable cgroup hierarchy: processes are tracked without cgroups");
  else {
    if (!processes) notes.push("no writable pids cgroup controller: no per-call pids.max");
    if (!memory) notes.push("no writable memory cgroup controller: memory is limited per process only (RLIMIT_AS)");
  }
  return { hierarchies, support: { tracking: hierarchies.length > 0, processes, memory, notes } };
}

/**
 * Creates `<base>/rath-sandbox-<pid>` (removing empty ones left by dead processes), enables pids and memory for
 * its children on v2, and proves a process can be moved into a child of it.
 */
async function prepareParent(version: 1 | 2, base: string, v1Controllers: ReadonlySet<string>): Promise<Hierarchy> {
  await access(path.join(base, "cgroup.procs"));
  await removeStaleParents(base);
  const parent = path.join(base, `${PARENT_PREFIX}${process.pid}`);
  await mkdir(parent, { recursive: true });
  process.once("exit", () => {
    try {
      rmdirSync(parent);
    } catch {
      // Busy or gone: a later process removes it.
    }
  });
  let controllers = v1Controllers;
  if (version === 2) {
    const available = (await readFile(path.join(parent, "cgroup.controllers"), "utf8").catch(() => "")).trim().split(/\s+/);
    const wanted = ["pids", "memory"].filter((controller) => available.includes(controller));
    const enabled = new Set<string>();
    for (const controller of wanted) {
      const ok = await writeFile(path.join(parent, "cgroup.subtree_control"), `+${controller}`).then(
        () => true,
        () => false,
      );
      if (ok) enabled.add(controller);
    }
    controllers = enabled;
  }
  const probe = path.join(parent, `probe-${randomUUID()}`);
  await mkdir(probe);
  try {
    const moved = await new Promise<boolean>((resolve) => {
      const child = spawn("/bin/sh", ["-c", `echo $$ > ${shellQuote(path.join(probe, "cgroup.procs"))}`], { stdio: "ignore" });
      child.on("error", () => resolve(false));
      child.on("exit", (code) => resolve(code === 0));
    });
    if (!moved) throw new Error("cannot move a process into a new cgroup");
  } finally {
    await rmdir(probe).catch(() => undefined);
  }
  return { version, controllers, parent };
}

async function removeStaleParents(base: string): Promise<void> {
  const entries = await readdir(base).catch(() => [] as string[]);
  for (const entry of entries) {
    if (!entry.startsWith(PARENT_PREFIX)) continue;
    const pid = Number(entry.slice(PARENT_PREFIX.length));
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const alive = await access(`/proc/${pid}`).then(
      () => true,
      () => false,
    );
    if (alive) continue;
    const stale = path.join(base, entry);
    for (const child of await readdir(stale).catch(() => [] as string[])) {
      if (child.startsWith("call-") || child.startsWith("probe-")) await rmdir(path.join(stale, child)).catch(() => undefined);
    }
    await rmdir(stale).catch(() => undefined);
  }
}
