import { RathError } from "../errors";

function canonicalValue(value: unknown, path: string): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RathError("invalid_argument", `canonical JSON: expected a finite number at ${path}, found ${value}`);
    return value;
  }
  if (Array.isArray(value)) return value.map((item, index) => (item === undefined ? null : canonicalValue(item, `${path}[${index}]`)));
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const key of keys) {
      const entry = (value as Record<string, unknown>)[key];
      if (entry === undefined) continue;
      out[key] = canonicalValue(entry, `${path}.${key}`);
    }
    return out;
  }
  throw new RathError("invalid_argument", `canonical JSON: expected a JSON value at ${path}, found ${typeof value}`);
}

/**
 * JSON text with object keys sorted (by UTF-16 code unit), no whitespace and no `undefined` members, so that equal
 * values always give the same text whatever their key order. Non-finite numbers, functions and symbols are refused.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalValue(value, "$"));
}
