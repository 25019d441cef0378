/** The text that replaces every secret. */
export const REDACTED = "[REDACTED]";

/** Property names whose string values are always secrets (compared case-insensitively). */
const SECRET_KEY_PATTERN =
  /^(authorization|proxy-authorization|x-api-key|[a-z0-9_-]*api[_-]?key|secret|client_secret|access_token|refresh_token|auth_?token|password)$/i;

/** Token shapes that are secrets wherever they appear in text. */
const SECRET_TEXT_PATTERNS: RegExp[] = [
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{4,}/gi,
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  /\b(x-api-key|api-key|api_key|authorization)(["']?\s*[:=]\s*["']?)(?!Bearer\s|Basic\s|\[REDACTED\])[^\s"',}]+/gi,
];

/** Options of {@link redactSecrets}. */
export interface RedactOptions {
  /** Exact values to remove wherever they appear (e.g. the configured API keys). Values shorter than 4 characters are ignored. */
  secrets?: readonly string[];
}

/**
 * Returns a copy of `value` (string, array or plain object, nested) with API keys and Authorization values
 * replaced by "[REDACTED]": known secret property names, `Bearer ...` / `sk-...` tokens, and any exact
 * `secrets` given. Use it before anything leaves the process (logs, exports, the browser).
 */
export function redactSecrets<T>(value: T, options: RedactOptions = {}): T {
  const secrets = (options.secrets ?? []).filter((secret) => secret.length >= 4).sort((a, b) => b.length - a.length);
  return redactValue(value, secrets, new WeakMap()) as T;
}

function redactValue(value: unknown, secrets: readonly string[], seen: WeakMap<object, unknown>): unknown {
  if (typeof value === "string") return redactText(value, secrets);
  if (value === null || typeof value !== "object") return value;
  const existing = seen.get(value);
  if (existing !== undefined) return existing;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(redactValue(item, secrets, seen));
    return copy;
  }
  if (value instanceof Error) {
    const copy = { name: value.name, message: redactText(value.message, secrets) };
    seen.set(value, copy);
    return copy;
  }
  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  for (const [key, item] of Object.entries(value)) {
    copy[key] = typeof item === "string" && SECRET_KEY_PATTERN.test(key) ? REDACTED : redactValue(item, secrets, seen);
  }
  return copy;
}

function redactText(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) result = result.split(secret).join(REDACTED);
  result = result.replace(SECRET_TEXT_PATTERNS[0]!, (_match, scheme: string) => `${scheme} ${REDACTED}`);
  result = result.replace(SECRET_TEXT_PATTERNS[1]!, REDACTED);
  result = result.replace(SECRET_TEXT_PATTERNS[2]!, (_match, name: string, separator: string) => `${name}${separator}${REDACTED}`);
  return result;
}
