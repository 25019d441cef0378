import { z } from "zod";
import { readdir, readFile } from "node:fs/promises";

/**
 * Resource limits of one command run in a confining sandbox. `processes` counts tasks (threads included) of the
 * whole sandbox; `memoryBytes` is the address space of each process and, where a memory cgroup is writable, the
 * resident memory of the whole sandbox; `cpuSeconds` is CPU time per process (default: the call's timeout);
 * `fileSizeBytes` caps any file a process writes; `outputBytes` is how much stdout plus stderr a command may print
 * before it is stopped (what is kept for the result is the smaller `outputLimitBytes` of the call).
 */
export const SandboxLimits = z.object({
  processes: z.number().int().min(8).default(128),
  memoryBytes: z.number().int().min(64 * 1024 * 1024).default(1024 * 1024 * 1024),
  cpuSeconds: z.number().int().positive().nullable().default(null),
  fileSizeBytes: z.number().int().positive().default(1024 * 1024 * 1024),
  outputBytes: z.number().int().positive().default(16 * 1024 * 1024),
  temporaryBytes: z.number().int().positive().default(256 * 1024 * 1024),
});
export type SandboxLimits = z.infer<typeof SandboxLimits>;

/** The limits every bwrap sandbox gets unless its backend is built with others. */
export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = Object.freeze(SandboxLimits.parse({}));

/** CPU seconds a process may use in a call: the configured value, else the call's timeout rounded up plus one. */
export function cpuSecondsFor(limits: SandboxLimits, timeoutMs: number): number {
  return limits.cpuSeconds ?? Math.ceil(timeoutMs / 1000) + 1;
}

/**
 * `prlimit` arguments that set the per-process limits (soft = hard, so a tool cannot raise them). `processes` is
 * the RLIMIT_NPROC value to set, or null to leave it alone (it does not apply to processes of host uid 0).
 */
export function prlimitArguments(limits: SandboxLimits, timeoutMs: number, processes: number | null): string[] {
  const pair = (value: number): string => `${value}:${value}`;
  return [
    `--as=${pair(limits.memoryBytes)}`,
    `--cpu=${pair(cpuSecondsFor(limits, timeoutMs))}`,
    `--fsize=${pair(limits.fileSizeBytes)}`,
    `--core=0:0`,
    ...(processes === null ? [] : [`--nproc=${pair(processes)}`]),
  ];
}

/**
 * Tasks (threads included) that run under `uid` now, as the kernel counts them against RLIMIT_NPROC: the limit is
 * checked against every process of the host uid, so a sandbox's budget has to sit on top of this count.
 */
export async function tasksOfUser(uid: number): Promise<number> {
  const entries = await readdir("/proc").catch(() => [] as string[]);
  const counts = await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry))
      .map(async (entry) => {
        const status = await readFile(`/proc/${entry}/status`, "utf8").catch(() => "");
        const owner = /^Uid:\s+(\d+)/m.exec(status)?.[1];
        const threads = /^Threads:\s+(\d+)/m.exec(status)?.[1];
        return owner !== undefined && Number(owner) === uid ? Number(threads ?? 1) : 0;
      }),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}

/**
 * The RLIMIT_NPROC to give a sandbox launched by this process, or null when it would not apply: the kernel never
 * enforces it for tasks of host uid 0 (a root-launched bwrap maps the sandbox user to uid 0 outside), so as root
 * only a pids cgroup limits processes. Otherwise it is the uid's current task count plus the sandbox's budget.
 */
export async function processRlimitFor(limits: SandboxLimits): Promise<number | null> {
  const uid = process.getuid?.();
  if (uid === undefined || uid === 0) return null;
  return (await tasksOfUser(uid)) + limits.processes;
}
