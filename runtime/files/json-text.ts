/**
 * Fast JSON text for export lines, written as the reference's Python `json.dumps` writes extras: strings that
 * need no escaping are quoted directly; numbers of any kind are kept (NaN/Infinity/-Infinity bare, bigint as
 * exact digits, see `python-json.ts`); values Python could not dump either (functions, undefined, symbols,
 * class instances, cycles) become JSON strings, as the reference's `str(value)` fallback does.
 */
import { pythonJsonText } from "./python-json";

const PLAIN = /^[\w .:/@+-]*$/;

/** A JSON string literal for `value` (skips JSON.stringify for the common plain case: ids, names). */
export function quote(value: string): string {
  return PLAIN.test(value) ? `"${value}"` : pythonJsonText(value);
}

function isJsonValue(value: unknown, stack: object[]): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
    case "number":
    case "bigint":
      return true;
    case "object": {
      if (value === null) return true;
      if (stack.includes(value)) return false;
      if (Array.isArray(value)) {
        stack.push(value);
        for (let i = 0; i < value.length; i++) {
          if (!(i in value) || !isJsonValue(value[i], stack)) return false;
        }
        stack.pop();
        return true;
      }
      const prototype: unknown = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return false;
      stack.push(value);
      for (const key of Object.keys(value)) {
        if (!isJsonValue((value as Record<string, unknown>)[key], stack)) return false;
      }
      stack.pop();
      return true;
    }
    default:
      return false;
  }
}

/** The string a non-JSON value is written as. */
export function describeForeign(value: unknown): string {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === "function") return `[function ${value.name || "anonymous"}]`;
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** JSON text for any value: JSON values as themselves, anything else as a JSON string (see `describeForeign`). */
export function jsonValueText(value: unknown): string {
  if (typeof value === "string") return quote(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean" || value === null) return String(value);
  if (isJsonValue(value, [])) return pythonJsonText(value);
  return pythonJsonText(describeForeign(value));
}

/** The value as it would read back from `jsonValueText` (for writers that build objects, not text). */
export function toJsonValue(value: unknown): unknown {
  return isJsonValue(value, []) ? value : describeForeign(value);
}
