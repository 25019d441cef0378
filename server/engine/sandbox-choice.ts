/**
 * Which sandbox backend server-side runs use (the Input node's placement, so code tools and the shell / file
 * built-ins of every session of the run): `RATH_SANDBOX_BACKEND=local|bwrap`, else bwrap where it works, else
 * local. `local` confines nothing but the environment and the call's lifetime, so choosing it (or falling back to
 * it) is logged as a warning at start and shown in the IDE (`system.info`).
 */
import { RathError } from "../../runtime/errors";
import type { BackendAvailability } from "../../runtime/sandbox/backend";
import { sandboxBackends } from "../../runtime/sandbox/backends";

/** The backends a server can run tools on. */
export const SERVER_SANDBOX_BACKENDS = ["local", "bwrap"] as const;
export type ServerSandboxBackend = (typeof SERVER_SANDBOX_BACKENDS)[number];

/** What the server decided, and why. */
export interface SandboxChoice {
  readonly backend: ServerSandboxBackend;
  /** True when tools run confined (bwrap). */
  readonly confined: boolean;
  /** How it was chosen: the variable's value, or `auto` when RATH_SANDBOX_BACKEND is not set. */
  readonly requested: ServerSandboxBackend | "auto";
  /** One line for the start-up log and the IDE's notice. */
  readonly summary: string;
  /** What bwrap cannot enforce on this machine (e.g. no pids cgroup), when bwrap was chosen. */
  readonly notes: readonly string[];
}

type Environment = Readonly<Record<string, string | undefined>>;

/** Reads RATH_SANDBOX_BACKEND: `local`, `bwrap`, or unset / empty (`auto`); anything else is `invalid_config`. */
export function requestedSandboxBackend(environment: Environment = process.env): ServerSandboxBackend | "auto" {
  const raw = environment.RATH_SANDBOX_BACKEND;
  const value = raw?.trim().toLowerCase() ?? "";
  if (value === "") return "auto";
  if ((SERVER_SANDBOX_BACKENDS as readonly string[]).includes(value)) return value as ServerSandboxBackend;
  throw new RathError("invalid_config", `RATH_SANDBOX_BACKEND must be "local" or "bwrap" (or unset for bwrap where available); found ${JSON.stringify(raw)}`);
}

/**
 * Decides the backend. `bwrap` requested but unusable is `invalid_config` with bwrap's reason (the server must not
 * silently run tools unconfined when confinement was asked for); `auto` falls back to local with a warning.
 */
export async function chooseSandboxBackend(
  environment: Environment = process.env,
  bwrapAvailability: () => Promise<BackendAvailability> = () => sandboxBackends.get("bwrap").available(),
): Promise<SandboxChoice> {
  const requested = requestedSandboxBackend(environment);
  if (requested === "local") {
    return {
      backend: "local",
      confined: false,
      requested,
      summary: "tools run UNCONFINED on the local backend (RATH_SANDBOX_BACKEND=local): they can read and write whatever the server's user can",
      notes: [],
    };
  }
  const availability = await bwrapAvailability();
  if (availability.ok) {
    const notes = availability.notes ?? [];
    return { backend: "bwrap", confined: true, requested, summary: `tools run in the bwrap sandbox${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`, notes };
  }
  const reason = availability.reason ?? "unavailable";
  if (requested === "bwrap") throw new RathError("invalid_config", `RATH_SANDBOX_BACKEND=bwrap, but the bwrap sandbox cannot run here: ${reason}`);
  return {
    backend: "local",
    confined: false,
    requested,
    summary: `tools run UNCONFINED on the local backend: bwrap is unavailable (${reason}); they can read and write whatever the server's user can`,
    notes: [],
  };
}

const KEY = Symbol.for("rath.sandboxChoice");
type Holder = typeof globalThis & { [KEY]?: Promise<SandboxChoice> };

/** The process's choice, decided once from process.env (a rejected decision is not kept, so a fix can be retried). */
export function sharedSandboxChoice(): Promise<SandboxChoice> {
  const holder = globalThis as Holder;
  let choice = holder[KEY];
  if (choice === undefined) {
    choice = chooseSandboxBackend();
    holder[KEY] = choice;
    choice.catch(() => {
      if (holder[KEY] === choice) delete holder[KEY];
    });
  }
  return choice;
}

/** Logs the choice at start: a warning when tools run unconfined, else one info line. */
export function logSandboxChoice(choice: SandboxChoice, log: Pick<Console, "info" | "warn"> = console): void {
  if (choice.confined) log.info(`[rath] ${choice.summary}`);
  else log.warn(`[rath] WARNING: ${choice.summary}`);
}
