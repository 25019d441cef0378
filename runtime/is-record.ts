/** True for a plain JSON-style object: not null, not an array (what a parsed JSON object is). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
