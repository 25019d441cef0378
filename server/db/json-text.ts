/**
 * JSON columns are TEXT on both providers; these helpers serialise on the way in and parse (with a zod schema)
 * on the way out, so a corrupt row fails loudly instead of leaking an untyped value. On the way in, every
 * configured secret value is replaced by `[REDACTED]` (stored-secrets.ts): this is the one place run data
 * (chunks, events, effect-ledger rows, checkpoints, outputs, errors) is serialised for the database.
 */
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import { parsePythonJson, pythonJsonText } from "../../runtime/files/python-json";
import { redactStoredText } from "./stored-secrets";

/** Any JSON value, and a list of strings: schemas for `fromJsonText`, made once (a zod schema costs more to make than to use). */
export const AnyJson = z.unknown();
export const StringList = z.array(z.string());

/** Options of `toJsonText`. */
export interface JsonTextOptions {
  /**
   * Replace configured secrets with `[REDACTED]` (default true). Only what the user authored and the engine must
   * read back exactly (a workflow spec and layout, a run's input) is stored as given.
   */
  redact?: boolean;
}

/**
 * Serialises a JSON value for a TEXT column, with configured secrets redacted; refuses values JSON cannot represent
 * (undefined, functions, cycles). Values read from reference files keep their Python form: NaN/Infinity as Python
 * writes them, big integers (bigint) exact (`python-json.ts`); everything else is exactly `JSON.stringify`'s text.
 */
export function toJsonText(value: unknown, what: string, options: JsonTextOptions = {}): string {
  let text: string | undefined;
  if (value === undefined || typeof value === "function" || typeof value === "symbol") {
    throw new RathError("invalid_argument", `${what} must be a JSON value; found ${typeof value}`);
  }
  try {
    text = pythonJsonText(value);
  } catch (error) {
    throw new RathError("invalid_argument", `${what} must be JSON-serialisable; found a value JSON.stringify rejects`, { cause: error });
  }
  if (text === undefined) {
    throw new RathError("invalid_argument", `${what} must be a JSON value; found ${typeof value}`);
  }
  return options.redact === false ? text : redactStoredText(text);
}

/** Parses a TEXT column with a schema; a mismatch is an `internal` error naming the column. */
export function fromJsonText<Schema extends z.ZodType>(text: string, schema: Schema, what: string): z.infer<Schema> {
  let value: unknown;
  try {
    value = parsePythonJson(text);
  } catch (error) {
    throw new RathError("internal", `stored ${what} is not valid JSON`, { cause: error });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new RathError("internal", `stored ${what} does not match its schema: ${parsed.error.message}`);
  }
  return parsed.data;
}

/**
 * `fromJsonText` for reads of many rows: plain `JSON.parse` and a hand-written `isValid` check first; only a value
 * that fails them (Python's NaN or big integers, or a corrupt row) goes through the parser and the schema, which
 * then says what is wrong. Same result, without a schema walk per row of a 5,000-session graph.
 */
export function fromJsonTextQuickly<Schema extends z.ZodType>(text: string, schema: Schema, what: string, isValid: (value: unknown) => value is z.infer<Schema>): z.infer<Schema> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fromJsonText(text, schema, what);
  }
  return isValid(value) ? value : fromJsonText(text, schema, what);
}
