/**
 * JSON as the reference implementation's Python `json` module reads and writes it. Python writes `NaN`,
 * `Infinity` and `-Infinity` for non-finite floats and integers of any size exactly; `JSON.parse` refuses the
 * first and rounds the second. `parsePythonJson` reads both (integers beyond 2^53 as `bigint`), and
 * `pythonJsonText` writes them back the same way. Strings are written with U+0085, U+2028 and U+2029 escaped,
 * because the reference splits a file into lines with `str.splitlines`, which also breaks at those characters.
 */

/** Characters `str.splitlines` breaks at that `JSON.stringify` leaves unescaped. */
const PYTHON_LINE_BREAKS = /[\u0085\u2028\u2029]/g;
const HAS_PYTHON_LINE_BREAK = /[\u0085\u2028\u2029]/;
const DIGIT_RUN = /\d{16}/;

/** Parses JSON text the way Python's `json.loads` does: NaN/Infinity/-Infinity accepted, big integers exact. */
export function parsePythonJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // JSON.parse refuses NaN/Infinity; the slow parser accepts them (and fails with the same kind of error otherwise).
    if (!/NaN|Infinity/.test(text)) throw error;
    return new PythonJsonParser(text).document();
  }
  // A 16-digit run may be an integer past 2^53 that JSON.parse rounded: parse again, exactly.
  if (DIGIT_RUN.test(text) && hasUnsafeInteger(value)) return new PythonJsonParser(text).document();
  return value;
}

function hasUnsafeInteger(value: unknown): boolean {
  if (typeof value === "number") return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some(hasUnsafeInteger);
  for (const key in value) if (hasUnsafeInteger((value as Record<string, unknown>)[key])) return true;
  return false;
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

/** A small recursive-descent parser for the cases `JSON.parse` cannot do (only used when it is needed). */
class PythonJsonParser {
  private position = 0;
  constructor(private readonly text: string) {}

  document(): unknown {
    const value = this.value();
    this.skipWhitespace();
    if (this.position !== this.text.length) this.fail("unexpected text after the JSON value");
    return value;
  }

  private fail(message: string): never {
    throw new SyntaxError(`${message} at position ${this.position}`);
  }

  private skipWhitespace(): void {
    WHITESPACE.lastIndex = this.position;
    WHITESPACE.exec(this.text);
    this.position = WHITESPACE.lastIndex;
  }

  private literal(word: string, value: unknown): unknown {
    if (!this.text.startsWith(word, this.position)) this.fail(`unexpected token`);
    this.position += word.length;
    return value;
  }

  private value(): unknown {
    this.skipWhitespace();
    const char = this.text[this.position];
    switch (char) {
      case "{":
        return this.object();
      case "[":
        return this.array();
      case '"':
        return this.string();
      case "t":
        return this.literal("true", true);
      case "f":
        return this.literal("false", false);
      case "n":
        return this.literal("null", null);
      case "N":
        return this.literal("NaN", Number.NaN);
      case "I":
        return this.literal("Infinity", Number.POSITIVE_INFINITY);
      case "-":
        if (this.text.startsWith("-Infinity", this.position)) return this.literal("-Infinity", Number.NEGATIVE_INFINITY);
        return this.number();
      default:
        if (char !== undefined && char >= "0" && char <= "9") return this.number();
        return this.fail(char === undefined ? "unexpected end of JSON input" : `unexpected token '${char}'`);
    }
  }

  private number(): number | bigint {
    NUMBER.lastIndex = this.position;
    const match = NUMBER.exec(this.text);
    if (!match) this.fail("invalid number");
    this.position = NUMBER.lastIndex;
    const token = match[0];
    if (match[1] === undefined && match[2] === undefined) {
      const value = Number(token);
      // Python reads an integer literal as an int of any size; keep those past 2^53 exact.
      return Number.isSafeInteger(value) ? value : BigInt(token);
    }
    return Number(token);
  }

  private string(): string {
    const start = this.position;
    let end = start + 1;
    for (;;) {
      const char = this.text[end];
      if (char === undefined) this.fail("unterminated string");
      if (char === '"') break;
      end += char === "\\" ? 2 : 1;
    }
    this.position = end + 1;
    return JSON.parse(this.text.slice(start, end + 1)) as string;
  }

  private array(): unknown[] {
    this.position += 1;
    const out: unknown[] = [];
    this.skipWhitespace();
    if (this.text[this.position] === "]") {
      this.position += 1;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.skipWhitespace();
      const char = this.text[this.position];
      this.position += 1;
      if (char === "]") return out;
      if (char !== ",") this.fail("expected ',' or ']' in an array");
    }
  }

  private object(): Record<string, unknown> {
    this.position += 1;
    const out: Record<string, unknown> = {};
    this.skipWhitespace();
    if (this.text[this.position] === "}") {
      this.position += 1;
      return out;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.position] !== '"') this.fail("expected a property name");
      const key = this.string();
      this.skipWhitespace();
      if (this.text[this.position] !== ":") this.fail("expected ':' after a property name");
      this.position += 1;
      Object.defineProperty(out, key, { value: this.value(), enumerable: true, writable: true, configurable: true });
      this.skipWhitespace();
      const char = this.text[this.position];
      this.position += 1;
      if (char === "}") return out;
      if (char !== ",") this.fail("expected ',' or '}' in an object");
    }
  }
}

function escapeLineBreaks(text: string): string {
  return text.replace(PYTHON_LINE_BREAKS, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function stringText(value: string): string {
  const text = JSON.stringify(value);
  return HAS_PYTHON_LINE_BREAK.test(text) ? escapeLineBreaks(text) : text;
}

function numberText(value: number): string {
  if (Number.isFinite(value)) return JSON.stringify(value);
  return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
}

/**
 * True when `JSON.stringify` would write this value exactly as Python does (no bigint, no non-finite number).
 * Past a deep nesting the answer is "plain", so a cyclic value reaches JSON.stringify and fails there as usual.
 */
function isPlainJson(value: unknown, depth = 0): boolean {
  switch (typeof value) {
    case "number":
      return Number.isFinite(value);
    case "bigint":
      return false;
    case "object": {
      if (value === null || depth > 256) return true;
      // Index loops, no callback: this walk runs on most of a step commit's JSON texts (they hold nulls).
      if (Array.isArray(value)) {
        for (let index = 0; index < value.length; index += 1) if (!isPlainJson(value[index], depth + 1)) return false;
        return true;
      }
      for (const key in value) if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
      return true;
    }
    default:
      return true;
  }
}

function valueText(value: unknown, inArray: boolean): string | undefined {
  switch (typeof value) {
    case "string":
      return stringText(value);
    case "number":
      return numberText(value);
    case "bigint":
      return value.toString();
    case "boolean":
      return String(value);
    case "object": {
      if (value === null) return "null";
      const json = (value as { toJSON?: unknown }).toJSON;
      if (typeof json === "function") return valueText((json as () => unknown).call(value), inArray);
      if (Array.isArray(value)) return `[${value.map((item) => valueText(item, true) ?? "null").join(",")}]`;
      const parts: string[] = [];
      for (const key of Object.keys(value)) {
        const text = valueText((value as Record<string, unknown>)[key], false);
        if (text !== undefined) parts.push(`${stringText(key)}:${text}`);
      }
      return `{${parts.join(",")}}`;
    }
    default:
      // undefined, functions, symbols: left out of objects, null in arrays (as JSON.stringify does).
      return inArray ? "null" : undefined;
  }
}

/**
 * JSON text that Python's `json.loads` reads back to the same value and that survives `str.splitlines`:
 * `JSON.stringify`'s output, except that non-finite numbers are written `NaN`/`Infinity`/`-Infinity`, bigints
 * as their exact digits, and U+0085, U+2028 and U+2029 escaped.
 */
export function pythonJsonText(value: unknown): string {
  // JSON.stringify first: it writes every non-finite number it meets as `null` and throws on a bigint, so when its
  // text has no "null" the value it wrote holds neither, and the walk of isPlainJson (a for-in over every object, the
  // larger part of this function's allocations in the engine's step commit) is not needed. Otherwise the walk decides
  // as before. The text is the same either way, for every value whose toJSON methods do not depend on their key.
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return walkedPythonJsonText(value);
  }
  if (text === undefined) return "null";
  if (text.includes("null") && !isPlainJson(value)) return valueText(value, false) ?? "null";
  return HAS_PYTHON_LINE_BREAK.test(text) ? escapeLineBreaks(text) : text;
}

/** `pythonJsonText` deciding by the walk alone (a value JSON.stringify refuses: a bigint, a cycle, a throwing toJSON). */
function walkedPythonJsonText(value: unknown): string {
  if (isPlainJson(value)) {
    const text = JSON.stringify(value) ?? "null";
    return HAS_PYTHON_LINE_BREAK.test(text) ? escapeLineBreaks(text) : text;
  }
  return valueText(value, false) ?? "null";
}
