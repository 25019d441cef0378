import type { z } from "zod";
import { RathError } from "../errors";
import { parsePythonJson, pythonJsonText } from "./python-json";

/** One complete, non-blank line of a JSONL file and its 1-based line number. */
export interface JsonlLine {
  readonly line: number;
  readonly text: string;
}

/**
 * The complete, non-blank lines of a JSONL text. An unterminated last line is dropped (a crash mid-write
 * leaves one); `droppedLastLine` says whether that happened.
 */
export function completeLines(text: string): { lines: JsonlLine[]; droppedLastLine: boolean } {
  const lines: JsonlLine[] = [];
  let start = 0;
  let number = 1;
  while (start < text.length) {
    const end = text.indexOf("\n", start);
    if (end === -1) return { lines, droppedLastLine: text.slice(start).trim().length > 0 };
    const raw = text.slice(start, end);
    if (raw.trim().length > 0) lines.push({ line: number, text: raw });
    start = end + 1;
    number += 1;
  }
  return { lines, droppedLastLine: false };
}

/** An `invalid_file` error naming the file and line. */
export function invalidLine(file: string, line: number, message: string, cause?: unknown): RathError {
  return new RathError("invalid_file", `${file}:${line}: ${message}`, {
    details: { file, line, reason: message },
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * Parses one line as a JSON object, or throws `invalid_file` naming the line. Read as Python's `json` reads it
 * (the reference writes these files): NaN/Infinity/-Infinity accepted, integers beyond 2^53 exact (bigint).
 */
export function parseJsonObject(file: string, entry: JsonlLine): Record<string, unknown> {
  let value: unknown;
  try {
    value = parsePythonJson(entry.text);
  } catch (error) {
    throw invalidLine(file, entry.line, "expected a JSON object, found invalid JSON", error);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const found = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    throw invalidLine(file, entry.line, `expected a JSON object, found ${found}`);
  }
  return value as Record<string, unknown>;
}

/** Validates a record with a zod schema (safeParse), or throws `invalid_file` naming the line and the field. */
export function parseRecord<S extends z.ZodType>(file: string, line: number, what: string, schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  throw invalidLine(file, line, `invalid ${what}${where}: ${issue?.message ?? "does not match the schema"}`, result.error);
}

/**
 * Serialises a record as one JSONL line (with its newline), as Python's `json` would read it back: non-finite
 * numbers as NaN/Infinity, bigints exact, and U+0085/U+2028/U+2029 escaped (see `python-json.ts`).
 */
export function jsonLine(record: unknown): string {
  return `${pythonJsonText(record)}\n`;
}
