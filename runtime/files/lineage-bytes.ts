/**
 * The lineage export's lines written as bytes straight into a buffer, the same bytes as `lineageLine` + "\n"
 * gives (UTF-8), without building a string per line.
 *
 * Why: a line built by concatenation is a tree of a dozen string pieces; joining 10,000 of them and encoding the
 * result cost more than building them (profiled 2026-12-04, bench/README.md). Here a line is a few copies of
 * constant byte runs (the keys, and one run per operator/kind pair), the ids' characters copied one by one,
 * and integers written as digits. Whatever is not a plain case (an id or name that needs escaping, extras, a
 * number that is not a small non-negative integer) is written from the string `lineage-export.ts` builds for it,
 * so both writers share one definition of the format.
 */
import { IDS_PLAIN, PAIR_SHIFT, PLAIN_ID_LENGTH } from "../session/line-facts";
import { Session } from "../session/session";
import type { Usage } from "../session/usage";

/** What a line is written from (a Session or its snapshot). */
export interface LineageBytesSource {
  readonly id: string;
  readonly lineage: {
    readonly parent_session_ids: readonly string[];
    readonly lineage_operator: string;
    readonly lineage_kind: string;
    readonly lineage_extras: readonly (readonly [string, unknown])[];
  };
  readonly chunks: { readonly length: number };
  readonly usage: Usage | null;
}

/** What the byte writer takes from lineage-export.ts (the one definition of the format) for the cases it does not write itself. */
export interface LineageText {
  quote(value: string): string;
  /** Whether an extra's key names a secret (the pair is left out). */
  isSecret(key: string): boolean;
  /** An extra's value as JSON text (secrets stripped from objects). */
  value(value: unknown): string;
}

function ascii(text: string): Uint8Array {
  return Buffer.from(text, "latin1");
}

const ID_OPEN = ascii('{"id":');
const PARENTS_OPEN = ascii(',"parent_session_ids":[');
const OPERATOR_OPEN = ascii('],"lineage_operator":');
const EXTRAS_OPEN = ascii(',"lineage_extras":');
const NO_EXTRAS_COUNT_OPEN = ascii('[],"chunk_count":');
const COUNT_OPEN = ascii(',"chunk_count":');
const TRUE = ascii("true");
const FALSE = ascii("false");
const NULL = ascii("null");
const NO_USAGE_END = ascii(',"cumulative_usage":null}\n');
const PROMPT_OPEN = ascii(',"cumulative_usage":{"prompt_tokens":');
const COMPLETION_OPEN = ascii(',"completion_tokens":');
const TOTAL_OPEN = ascii(',"total_tokens":');

const QUOTE = 0x22;
const COMMA = 0x2c;

/**
 * Room a line needs besides its strings and numbers: the constant runs (about 150 bytes). A line is only begun
 * when this much plus its strings' worst case is free; otherwise the buffer is handed on first.
 */
const LINE_CONSTANTS = 256;

function copy(target: Uint8Array, at: number, bytes: Uint8Array): number {
  target.set(bytes, at);
  return at + bytes.length;
}

/**
 * Writes `"text"` when every character of `text` is printable ASCII other than `"` and `\` (JSON then writes it
 * as it is); returns -1 (having written some of it) otherwise.
 */
function plainString(target: Uint8Array, at: number, text: string): number {
  target[at++] = QUOTE;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === QUOTE || code === 0x5c) return -1;
    target[at + i] = code;
  }
  at += length;
  target[at++] = QUOTE;
  return at;
}

/** Writes a non-negative integer below 2^30 as digits; -1 (nothing written) for any other number. */
function digits(target: Uint8Array, at: number, value: number): number {
  if (value >>> 0 !== value || value >= 0x40000000) return -1;
  if (value < 10) {
    target[at] = 0x30 + value;
    return at + 1;
  }
  if (value < 100) {
    const tens = (value / 10) | 0;
    target[at] = 0x30 + tens;
    target[at + 1] = 0x30 + value - tens * 10;
    return at + 2;
  }
  if (value < 1000) {
    const hundreds = (value / 100) | 0;
    const tens = ((value - hundreds * 100) / 10) | 0;
    target[at] = 0x30 + hundreds;
    target[at + 1] = 0x30 + tens;
    target[at + 2] = 0x30 + value - hundreds * 100 - tens * 10;
    return at + 3;
  }
  let width = 4;
  for (let rest = (value / 10000) | 0; rest > 0; rest = (rest / 10) | 0) width++;
  let rest = value;
  for (let i = at + width - 1; i >= at; i--) {
    const next = (rest / 10) | 0;
    target[i] = 0x30 + rest - next * 10;
    rest = next;
  }
  return at + width;
}

/**
 * Writes the characters of an id of ID_LENGTH printable ASCII characters other than `"` and `\\` (JSON writes
 * them as they are) at `at`; false (having written some of them) for any other id.
 */
function plainId(target: Uint8Array, at: number, id: string): boolean {
  if (id.length !== ID_LENGTH) return false;
  for (let i = 0; i < ID_LENGTH; i++) {
    const code = id.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === QUOTE || code === 0x5c) return false;
    target[at + i] = code;
  }
  return true;
}

/** The length of a session id made by `newSessionId` (a UUID); lines whose ids all have it use a template. */
const ID_LENGTH = PLAIN_ID_LENGTH;

/** Node's `Buffer#latin1Write`, what `write(text, at, length, "latin1")` ends in after its argument checks (not in @types/node). */
interface Latin1Write {
  latin1Write(text: string, at: number, length: number): number;
}

const hasLatin1Write = typeof (Buffer.prototype as Partial<Latin1Write>).latin1Write === "function";

/**
 * Copies a plain id (line-facts.ts: checked when its Session was made) to `at`: one native copy, which measured
 * faster than a `charCodeAt` loop even without its checks (bench/README.md, 2026-12-05 07:00-08:40); the loop
 * where Node has no `latin1Write`.
 */
function writePlainId(target: Buffer, at: number, id: string): void {
  if (hasLatin1Write) {
    (target as unknown as Latin1Write).latin1Write(id, at, ID_LENGTH);
  } else {
    for (let i = 0; i < ID_LENGTH; i++) target[at + i] = id.charCodeAt(i);
  }
}

/** Byte offset of the session id in a template, and of its first parent (each parent takes ID_LENGTH + 3 bytes). */
const ID_AT = ID_OPEN.length + 1;
const FIRST_PARENT_AT = ID_AT + ID_LENGTH + 1 + PARENTS_OPEN.length + 1;

/**
 * Writes a line into `target` at `at` and returns where it ends, or -1 when it may not fit in `end - at` bytes
 * (nothing after `at` is then meaningful).
 *
 * The common line (36-character plain ids, at most two parents) starts with a template: every byte from `{"id":`
 * to `"chunk_count":` (to `"lineage_extras":` when it has extras) for its operator, kind and number of parents,
 * copied at once, the ids then written into their places by one loop each that checks and copies their characters
 * (a regex test and a `utf8Write` per id, the native calls of the first version, were a quarter of the line
 * writer's time: bench/README.md, 2026-12-05).
 *
 * A Session knows from its construction whether its line's ids are plain and which (operator, kind) pair its
 * lineage has (`Session.lineFacts`, session/line-facts.ts): then its ids are copied without checking each
 * character, and its template is found by index. The checking loops were ~35 % of the line writer's time
 * (bench/README.md, 2026-12-05 07:00-08:40); snapshots and other ids still take them.
 */
export class LineageLineWriter {
  /** Operator and kind as one quoted run, `"op","lineage_kind":"kind"` (a handful of distinct pairs, bounded). */
  private readonly names = new Map<string, Map<string, Uint8Array>>();
  /**
   * Templates by operator, then kind, then `2 * parents + (extras ? 1 : 0)` (0-2 parents); bounded like `names`.
   * A template for a line with extras ends at `"lineage_extras":`.
   */
  private readonly templates = new Map<string, Map<string, (Uint8Array | undefined)[]>>();
  /** The same templates by `6 * pair + 2 * parents + (extras ? 1 : 0)`, for sessions whose pair is interned. */
  private readonly pairTemplates: (Uint8Array | undefined)[] = [];

  constructor(private readonly text: LineageText) {}

  private nameRun(operator: string, kind: string): Uint8Array {
    let byKind = this.names.get(operator);
    if (byKind === undefined) {
      byKind = new Map();
      if (this.names.size < 256) this.names.set(operator, byKind);
    }
    let run = byKind.get(kind);
    if (run === undefined) {
      run = Buffer.from(`${this.text.quote(operator)},"lineage_kind":${this.text.quote(kind)}`, "utf8");
      if (byKind.size < 64) byKind.set(kind, run);
    }
    return run;
  }

  private template(operator: string, kind: string, parents: number, extras: boolean): Uint8Array {
    let byKind = this.templates.get(operator);
    if (byKind === undefined) {
      byKind = new Map();
      if (this.templates.size < 256) this.templates.set(operator, byKind);
    }
    let byParents = byKind.get(kind);
    if (byParents === undefined) {
      byParents = [undefined, undefined, undefined, undefined, undefined, undefined];
      if (byKind.size < 64) byKind.set(kind, byParents);
    }
    const slot = 2 * parents + (extras ? 1 : 0);
    let template = byParents[slot];
    if (template === undefined) {
      const id = `"${" ".repeat(ID_LENGTH)}"`;
      const head = `{"id":${id},"parent_session_ids":[${Array.from({ length: parents }, () => id).join(",")}],"lineage_operator":`;
      const run = this.nameRun(operator, kind);
      template = Buffer.concat(extras ? [Buffer.from(head, "latin1"), run, EXTRAS_OPEN] : [Buffer.from(head, "latin1"), run, EXTRAS_OPEN, NO_EXTRAS_COUNT_OPEN]);
      byParents[slot] = template;
    }
    return template;
  }

  /** Writes `text` as a JSON string (escaped like `quote`), or -1 when it may not fit before `end`. */
  private string(target: Buffer, at: number, end: number, text: string): number {
    if (at + text.length + 2 <= end) {
      const written = plainString(target, at, text);
      if (written >= 0) return written;
    }
    return this.utf8(target, at, end, this.text.quote(text));
  }

  private utf8(target: Buffer, at: number, end: number, text: string): number {
    // Any UTF-16 code unit takes at most 3 bytes in UTF-8.
    if (at + text.length * 3 > end && at + Buffer.byteLength(text, "utf8") > end) return -1;
    return at + target.write(text, at, end - at, "utf8");
  }

  private number(target: Buffer, at: number, end: number, value: number): number {
    const written = digits(target, at, value);
    return written >= 0 ? written : this.utf8(target, at, end, String(value));
  }

  /**
   * Writes the extras as `extrasText` does: `[[key,value],...]` without secret-named pairs; plain strings, small
   * integers, booleans and null directly, any other value from `text.value`. Returns -1 when they may not fit before
   * `end` (a few bytes past `end` may have been written).
   */
  private extras(target: Buffer, at: number, end: number, extras: readonly (readonly [string, unknown])[]): number {
    target[at++] = 0x5b;
    let first = true;
    for (let i = 0; i < extras.length; i++) {
      const pair = extras[i] as readonly [string, unknown];
      const key = pair[0];
      if (this.text.isSecret(key)) continue;
      if (!first) target[at++] = COMMA;
      first = false;
      target[at++] = 0x5b;
      at = this.string(target, at, end, key);
      if (at < 0) return -1;
      target[at++] = COMMA;
      const value = pair[1];
      if (typeof value === "string") at = this.string(target, at, end, value);
      else if (typeof value === "number") {
        const written = digits(target, at, value);
        at = written >= 0 ? written : this.utf8(target, at, end, this.text.value(value));
      } else if (value === true) at = copy(target, at, TRUE);
      else if (value === false) at = copy(target, at, FALSE);
      else if (value === null) at = copy(target, at, NULL);
      else at = this.utf8(target, at, end, this.text.value(value));
      if (at < 0) return -1;
      target[at++] = 0x5d;
    }
    target[at++] = 0x5d;
    return at;
  }

  private pairTemplate(pair: number, lineage: LineageBytesSource["lineage"], parents: number, extras: boolean): Uint8Array {
    const slot = 6 * pair + 2 * parents + (extras ? 1 : 0);
    let template = this.pairTemplates[slot];
    if (template === undefined) {
      template = this.template(lineage.lineage_operator, lineage.lineage_kind, parents, extras);
      while (this.pairTemplates.length < slot) this.pairTemplates.push(undefined);
      this.pairTemplates[slot] = template;
    }
    return template;
  }

  line(target: Buffer, at: number, end: number, source: LineageBytesSource): number {
    if (at + LINE_CONSTANTS > end) return -1;
    const lineage = source.lineage;
    const parents = lineage.parent_session_ids;
    const count = parents.length;
    const facts = Session.lineFacts(source);
    // Plain ids, at most two parents (line-facts.ts): copied unchecked. Otherwise checked while copied.
    const idsPlain = (facts & IDS_PLAIN) === IDS_PLAIN;
    if (idsPlain || count <= 2) {
      const extras = lineage.lineage_extras;
      const pair = idsPlain ? facts >>> PAIR_SHIFT : 0;
      const template =
        pair === 0 ? this.template(lineage.lineage_operator, lineage.lineage_kind, count, extras.length > 0) : this.pairTemplate(pair, lineage, count, extras.length > 0);
      if (at + template.length + LINE_CONSTANTS <= end) {
        target.set(template, at);
        if (idsPlain) {
          writePlainId(target, at + ID_AT, source.id);
          if (count > 0) writePlainId(target, at + FIRST_PARENT_AT, parents[0] as string);
          if (count > 1) writePlainId(target, at + FIRST_PARENT_AT + ID_LENGTH + 3, parents[1] as string);
        }
        if (
          idsPlain ||
          (plainId(target, at + ID_AT, source.id) &&
            (count === 0 || plainId(target, at + FIRST_PARENT_AT, parents[0] as string)) &&
            (count < 2 || plainId(target, at + FIRST_PARENT_AT + ID_LENGTH + 3, parents[1] as string)))
        ) {
          at += template.length;
          if (extras.length > 0) {
            at = this.extras(target, at, end - LINE_CONSTANTS, extras);
            if (at < 0) return -1;
            at = copy(target, at, COUNT_OPEN);
          }
          return this.end(target, at, end, source);
        }
      }
    }
    return this.general(target, at, end, source);
  }

  private general(target: Buffer, at: number, end: number, source: LineageBytesSource): number {
    if (at + LINE_CONSTANTS > end) return -1;
    const lineage = source.lineage;
    const parents = lineage.parent_session_ids;
    at = copy(target, at, ID_OPEN);
    at = this.string(target, at, end - LINE_CONSTANTS, source.id);
    if (at < 0) return -1;
    at = copy(target, at, PARENTS_OPEN);
    for (let i = 0; i < parents.length; i++) {
      if (i > 0) target[at++] = COMMA;
      at = this.string(target, at, end - LINE_CONSTANTS, parents[i] as string);
      if (at < 0) return -1;
    }
    at = copy(target, at, OPERATOR_OPEN);
    const run = this.nameRun(lineage.lineage_operator, lineage.lineage_kind);
    if (at + run.length + LINE_CONSTANTS > end) return -1;
    at = copy(target, at, run);
    at = copy(target, at, EXTRAS_OPEN);
    const extras = lineage.lineage_extras;
    if (extras.length === 0) {
      at = copy(target, at, NO_EXTRAS_COUNT_OPEN);
    } else {
      at = this.extras(target, at, end - LINE_CONSTANTS, extras);
      if (at < 0) return -1;
      at = copy(target, at, COUNT_OPEN);
    }
    return this.end(target, at, end, source);
  }

  /** From the chunk count (`"chunk_count":` written) to the newline. */
  private end(target: Buffer, at: number, end: number, source: LineageBytesSource): number {
    at = this.number(target, at, end - LINE_CONSTANTS, Session.chunkCount(source));
    if (at < 0) return -1;
    const usage = source.usage;
    if (usage === null) return copy(target, at, NO_USAGE_END);
    at = copy(target, at, PROMPT_OPEN);
    at = this.number(target, at, end - LINE_CONSTANTS, usage.prompt_tokens);
    if (at < 0) return -1;
    at = copy(target, at, COMPLETION_OPEN);
    at = this.number(target, at, end - LINE_CONSTANTS, usage.completion_tokens);
    if (at < 0) return -1;
    at = copy(target, at, TOTAL_OPEN);
    at = this.number(target, at, end - LINE_CONSTANTS, usage.total_tokens);
    if (at < 0) return -1;
    target[at] = 0x7d;
    target[at + 1] = 0x7d;
    target[at + 2] = 0x0a;
    return at + 3;
  }
}
