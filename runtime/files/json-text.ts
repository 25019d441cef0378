/**
 * Fast JSON text for export lines: strings that need no escaping are quoted directly, and values that are not
 * JSON (functions, bigint, undefined, symbols, non-finite numbers, class instances, cycles) become JSON strings.
 */

const PLAIN = /^[\w .:/@+-]*$/;

/** A JSON string literal for `value` (skips JSON.stringify for the common plain case: ids, names). */
export function quote(value: string): string {
  return PLAIN.test(value) ? `"${value}"` : JSON.stringify(value);
}

function isJsonValue(value: unknown, stack: object[]): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
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
      const prototype = Object.getPrototypeOf(value);
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
  if (isJsonValue(value, [])) return JSON.stringify(value);
  return JSON.stringify(describeForeign(value));
}

/** The value as it would read back from `jsonValueText` (for writers that build objects, not text). */
export function toJsonValue(value: unknown): unknown {
  return isJsonValue(value, []) ? value : describeForeign(value);
}
