import type { LineageExtras } from "../session/lineage";
import type { Placement } from "../sandbox/handle";

const verdicts = new Map<string, boolean>();

function words(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

function judge(key: string): boolean {
  const parts = words(key);
  for (let i = 0; i < parts.length; i++) {
    const word = parts[i] as string;
    if (word === "secret" || word === "secrets" || word === "password" || word === "passwd") return true;
    if (word === "authorization" || word === "credential" || word === "credentials" || word === "apikey") return true;
    if (word === "token" || word === "cookie") return true;
    if (word === "api" && parts[i + 1] === "key") return true;
  }
  return false;
}

/**
 * True when a key names a secret: api_key / apiKey / x-api-key, authorization, token (not `tokens`, so usage
 * counters stay), secret, password, credential, cookie.
 */
export function isSecretKey(key: string): boolean {
  let verdict = verdicts.get(key);
  if (verdict === undefined) {
    verdict = judge(key);
    if (verdicts.size < 10_000) verdicts.set(key, verdict);
  }
  return verdict;
}

/** A deep copy of a JSON-like value without any object key that names a secret. */
export function stripSecrets(value: unknown, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => stripSecrets(item, seen));
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!isSecretKey(key)) out[key] = stripSecrets(item, seen);
  }
  return out;
}

/** Lineage extras without pairs whose key names a secret, and without secret keys inside their values. */
export function stripSecretExtras(extras: LineageExtras): LineageExtras {
  const out: LineageExtras = [];
  for (const [key, value] of extras) {
    if (!isSecretKey(key)) out.push([key, stripSecrets(value)]);
  }
  return out;
}

/** A placement whose spec env has no secret-named variables (OPENAI_API_KEY, GITHUB_TOKEN, ...). */
export function stripSecretPlacement(placement: Placement): Placement {
  if (!placement.spec || placement.spec.env === null) return placement;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(placement.spec.env)) {
    if (!isSecretKey(key)) env[key] = value;
  }
  return { backend: placement.backend, spec: { ...placement.spec, env } };
}
