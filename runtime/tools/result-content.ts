import { parsePythonJson } from "../files/python-json";
import { ToolErrorKind } from "../session/chunk";

/** Results longer than this (as JSON) are replaced by a truncated rendering, as the reference does. */
export const MAX_RESULT_JSON_CHARS = 48_000;

/** The tool_result content of a failed call: `{"ok":false,"error_kind","message","detail"?}`. */
export function failureContent(kind: ToolErrorKind, message: string, detail?: unknown): string {
  const hasDetail = detail !== undefined && detail !== null && detail !== "";
  return JSON.stringify({ ok: false, error_kind: kind, message, ...(hasDetail ? { detail } : {}) });
}

/**
 * The tool_result content of a successful call: the result itself as JSON (the reference's shape; built-ins
 * return their projections such as `{exit_code, stdout, stderr, elapsed_ms}`). `undefined` becomes null;
 * values JSON cannot hold, or too long, become `{repr, type}`.
 */
export function successContent(result: unknown): string {
  const type = result === null ? "null" : Array.isArray(result) ? "array" : typeof result;
  let text: string | undefined;
  try {
    text = JSON.stringify(result === undefined ? null : result);
  } catch {
    text = undefined;
  }
  if (text === undefined) return JSON.stringify({ repr: String(result), type });
  if (text.length > MAX_RESULT_JSON_CHARS) {
    return JSON.stringify({ repr: `${text.slice(0, MAX_RESULT_JSON_CHARS - 1000)}...(truncated)`, type });
  }
  return text;
}

/** Reads `ok` and `error_kind` back from a content string (used for contents replayed from the effect ledger). */
export function contentOutcome(content: string): { ok: boolean; errorKind?: ToolErrorKind } {
  try {
    const parsed: unknown = parsePythonJson(content);
    if (typeof parsed === "object" && parsed !== null) {
      const record = parsed as { ok?: unknown; error_kind?: unknown };
      if (record.ok === false && typeof record.error_kind === "string") {
        const kind = ToolErrorKind.safeParse(record.error_kind);
        return { ok: false, errorKind: kind.success ? kind.data : "tool_execution_exception" };
      }
    }
  } catch {
    // Not JSON: a plain successful content.
  }
  return { ok: true };
}
