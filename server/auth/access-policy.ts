/**
 * Who may reach the studio, decided once from the environment of the server process (never from a request):
 *
 * - `RATH_HOST` is the address the server listens on. `npm start` / `npm run studio` / `npm run dev` go through
 *   bin/rath-serve.mjs, which passes it to Next.js as `-H` and defaults it to 127.0.0.1. A server started some
 *   other way (plain `next start`, which listens on every interface) has no RATH_HOST, so its binding is unknown
 *   and it is treated as exposed.
 * - On a loopback address no sign-in is needed, unless `RATH_AUTH=required`. Anywhere else sign-in is required.
 * - On a loopback address only loopback host names are served (`localhost`, `127.0.0.1`, `[::1]`, plus
 *   `RATH_ALLOWED_HOSTS`): a page on another name whose DNS answer was switched to 127.0.0.1 (DNS rebinding) is
 *   refused. Forwarded headers (`X-Forwarded-For`, `Forwarded`, `X-Forwarded-Host`) are never consulted.
 */
import { RathError } from "../../runtime/errors";

/** Environment variables, e.g. `process.env`. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** The access rules of this server process. */
export interface AccessPolicy {
  /** The listening address from RATH_HOST, or null when the server was not started through bin/rath-serve.mjs. */
  readonly boundHost: string | null;
  /** True when the server listens on a loopback address only. */
  readonly loopback: boolean;
  /** Every request needs a signed-in user or an API key. */
  readonly signInRequired: boolean;
  /**
   * Host names (lower case, IPv6 in brackets, no port) the server answers to; null means any. Always set on
   * loopback (DNS-rebinding protection); elsewhere only when RATH_ALLOWED_HOSTS is set.
   */
  readonly allowedHostnames: ReadonlySet<string> | null;
  /** One sentence for the start-up log: where the server listens and whether sign-in is needed. */
  readonly summary: string;
}

/** Host names that always mean this machine. */
export const LOOPBACK_HOSTNAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** True for 127.0.0.0/8, ::1 and localhost (with or without IPv6 brackets). */
export function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (name === "localhost" || name === "::1" || name === "0:0:0:0:0:0:0:1") return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name);
  return octets !== null && octets.slice(1).every((octet) => Number(octet) <= 255);
}

/** A host name as the policy compares it: lower case, IPv6 in brackets. */
export function normalizeHostname(name: string): string {
  const lower = name.trim().toLowerCase();
  return lower.includes(":") && !lower.startsWith("[") ? `[${lower}]` : lower;
}

function parseAllowedHosts(value: string | undefined): string[] {
  if (value === undefined || value.trim() === "") return [];
  return value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "")
    .map((item) => {
      if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)$/.test(item)) {
        throw new RathError("invalid_config", `RATH_ALLOWED_HOSTS must list host names without scheme or port, separated by commas; found ${JSON.stringify(item)}`);
      }
      return normalizeHostname(item);
    });
}

/** Reads the access policy from the environment; throws `invalid_config` naming a bad variable. */
export function accessPolicyFromEnvironment(environment: Environment = process.env): AccessPolicy {
  const mode = environment.RATH_AUTH?.trim().toLowerCase() || "auto";
  if (mode !== "auto" && mode !== "required") {
    throw new RathError("invalid_config", `RATH_AUTH must be "required" or "auto" (the default: sign-in on any address but loopback); found ${JSON.stringify(environment.RATH_AUTH)}`);
  }
  const boundHost = environment.RATH_HOST?.trim() || null;
  const loopback = boundHost !== null && isLoopbackHost(boundHost);
  const extraHosts = parseAllowedHosts(environment.RATH_ALLOWED_HOSTS);
  const signInRequired = mode === "required" || !loopback;
  const allowedHostnames = loopback ? new Set([...LOOPBACK_HOSTNAMES, ...extraHosts]) : extraHosts.length > 0 ? new Set(extraHosts) : null;
  const where = boundHost === null ? "an unknown address (RATH_HOST is not set: started without npm start / npm run studio)" : boundHost;
  const why = signInRequired ? (mode === "required" ? "sign-in required (RATH_AUTH=required)" : "sign-in required (not a loopback address)") : "no sign-in (loopback only)";
  return { boundHost, loopback, signInRequired, allowedHostnames, summary: `listening on ${where}: ${why}` };
}

/** The policy of this process, read from process.env on each call (cheap; tests change the environment). */
export function currentAccessPolicy(): AccessPolicy {
  return accessPolicyFromEnvironment(process.env);
}
