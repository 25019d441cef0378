/**
 * Whether the Next.js server starts its in-process worker at start-up (embedded mode): yes on the SQLite
 * database, unless RATH_EMBEDDED_WORKER=0 (or RATH_IN_PROCESS_WORKER=0); no when DATABASE_URL points at
 * PostgreSQL (server mode: run `npm run worker` processes instead).
 */
import { resolveDatabaseLocation, type DatabaseEnvironment } from "../db/database-url";

/** The decision and why (logged at start-up). */
export interface EmbeddedWorkerDecision {
  start: boolean;
  reason: string;
}

const OFF = new Set(["0", "false", "off", "no"]);

/** Decides from the environment; see the module comment. */
export function embeddedWorkerDecision(environment: DatabaseEnvironment & Readonly<Record<string, string | undefined>>): EmbeddedWorkerDecision {
  for (const name of ["RATH_EMBEDDED_WORKER", "RATH_IN_PROCESS_WORKER"]) {
    const value = environment[name]?.trim().toLowerCase();
    if (value !== undefined && OFF.has(value)) return { start: false, reason: `${name}=${value}: no in-process worker; run \`npm run worker\`` };
  }
  const location = resolveDatabaseLocation(undefined, environment);
  if (location.provider === "postgresql") {
    return { start: false, reason: "DATABASE_URL is PostgreSQL (server mode): start workers with `npm run worker`" };
  }
  return { start: true, reason: `embedded mode: in-process worker on ${location.filePath}` };
}

/** How long a lease lasts (ms): RATH_LEASE_MS, default 30 000; anything but a positive whole number is refused. */
export function leaseMsFrom(environment: Readonly<Record<string, string | undefined>>): number {
  const raw = environment.RATH_LEASE_MS?.trim();
  if (raw === undefined || raw === "") return 30_000;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`RATH_LEASE_MS must be a positive whole number of milliseconds; found '${raw}'`);
  }
  return value;
}

/** Whether a process with this id runs on this machine (signal 0 probes without sending anything). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The embedded worker's identity: `embedded:<host>:<database file>:<pid>:<random>`. A restarted studio on the same
 * database file and machine recognises the runs its previous process held (same prefix, a process that is gone)
 * and requeues them at once instead of waiting out their lease.
 */
export function embeddedWorkerIdentity(
  databaseFile: string,
  options: { host: string; pid: number; suffix: string; alive?: (pid: number) => boolean },
): { workerId: string; ownerPrefix: string; isGone: (leaseOwner: string) => boolean } {
  const ownerPrefix = `embedded:${options.host}:${databaseFile}:`;
  const alive = options.alive ?? processAlive;
  return {
    workerId: `${ownerPrefix}${options.pid}:${options.suffix}`,
    ownerPrefix,
    isGone: (leaseOwner) => {
      const pid = Number(/^(\d+):/.exec(leaseOwner.slice(ownerPrefix.length))?.[1]);
      return Number.isSafeInteger(pid) && pid > 0 && pid !== options.pid && !alive(pid);
    },
  };
}
