import { randomBytes } from "node:crypto";
import { open, readFile, rename, rm, type FileHandle } from "node:fs/promises";
import { isRathError, RathError } from "../errors";
import type { LineageExtras } from "../session/lineage";
import type { SessionSnapshot } from "../session/session";
import type { Session } from "../session/session";
import type { Usage } from "../session/usage";
import { jsonValueText, quote } from "./json-text";
import { completeLines, parseJsonObject, parseRecord } from "./jsonl-lines";
import { LineageRecord } from "./records";
import { isSecretKey, stripSecrets } from "./secrets";

/** Anything a lineage line can be written from: a Session or its snapshot. */
export type LineageSource = Session | SessionSnapshot;

function chunkCount(source: LineageSource): number {
  return source.chunks.length;
}

function usageText(usage: Usage | null): string {
  return usage === null
    ? "null"
    : `{"prompt_tokens":${usage.prompt_tokens},"completion_tokens":${usage.completion_tokens},"total_tokens":${usage.total_tokens}}`;
}

function extrasText(extras: LineageExtras): string {
  if (extras.length === 0) return "[]";
  let out = "[";
  let first = true;
  for (const pair of extras) {
    const key = pair[0];
    if (isSecretKey(key)) continue;
    const value = typeof pair[1] === "object" && pair[1] !== null ? stripSecrets(pair[1]) : pair[1];
    out += `${first ? "" : ","}[${quote(key)},${jsonValueText(value)}]`;
    first = false;
  }
  return `${out}]`;
}

function parentsText(parents: readonly string[]): string {
  if (parents.length === 0) return "[]";
  let out = "[";
  for (let i = 0; i < parents.length; i++) out += (i === 0 ? "" : ",") + quote(parents[i] as string);
  return `${out}]`;
}

/** Quoted operator and kind names: a handful of distinct values, quoted once (bounded). */
const quotedNames = new Map<string, string>();

function quoteName(name: string): string {
  let quoted = quotedNames.get(name);
  if (quoted === undefined) {
    quoted = quote(name);
    if (quotedNames.size < 1_000) quotedNames.set(name, quoted);
  }
  return quoted;
}

/** One lineage line (without its newline). */
export function lineageLine(source: LineageSource): string {
  const lineage = source.lineage;
  const extras = lineage.lineage_extras;
  return (
    `{"id":${quote(source.id)},"parent_session_ids":${parentsText(lineage.parent_session_ids)}` +
    `,"lineage_operator":${quoteName(lineage.lineage_operator)},"lineage_kind":${quoteName(lineage.lineage_kind)}` +
    `,"lineage_extras":${extras.length === 0 ? "[]" : extrasText(extras)},"chunk_count":${chunkCount(source)}` +
    `,"cumulative_usage":${usageText(source.usage)}}`
  );
}

/**
 * Lines per piece of the export. A piece (about 75 KB) stays under V8's large-object size (128 KB): a string or
 * array larger than that is allocated in fresh pages, which measured several times slower than the lines
 * themselves, so the export is never held as one string on its way to a file.
 */
const LINES_PER_PIECE = 256;

/** The export in pieces of whole lines, each ending with a newline. */
function* exportPieces(sources: Iterable<LineageSource>): Generator<string> {
  let lines: string[] = [];
  for (const source of sources) {
    lines.push(lineageLine(source));
    if (lines.length === LINES_PER_PIECE) {
      yield `${lines.join("\n")}\n`;
      lines = [];
    }
  }
  if (lines.length > 0) yield `${lines.join("\n")}\n`;
}

/**
 * The lineage export of these sessions: one JSON line per session `{id, parent_session_ids, lineage_operator,
 * lineage_kind, lineage_extras, chunk_count, cumulative_usage}`. Extras that are not JSON values are written
 * as strings; secret-named extras are left out. Lines are built as strings directly (no JSON.stringify).
 */
export function exportLineage(sources: Iterable<LineageSource>): string {
  return [...exportPieces(sources)].join("");
}

async function writeAll(handle: FileHandle, piece: string): Promise<void> {
  const bytes = Buffer.from(piece, "utf8");
  for (let offset = 0; offset < bytes.length; ) offset += (await handle.write(bytes, offset)).bytesWritten;
}

/**
 * Writes the lineage export of these sessions to `file` (mode 0600), replacing it whole: the lines go to a
 * temporary file next to it, piece by piece (the next piece is built while the last one is written), which is
 * then renamed over `file`. A failure leaves `file` as it was.
 */
export async function writeLineageExport(file: string, sources: Iterable<LineageSource>): Promise<void> {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  let handle: FileHandle | null = null;
  try {
    handle = await open(temporary, "wx", 0o600);
    let writing: Promise<void> | null = null;
    for (const piece of exportPieces(sources)) {
      if (writing !== null) await writing;
      writing = writeAll(handle, piece);
    }
    if (writing !== null) await writing;
    await handle.close();
    handle = null;
    await rename(temporary, file);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await rm(temporary, { force: true });
    if (isRathError(error)) throw error;
    throw new RathError("io_error", `could not write lineage export ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** Parses a lineage export; a bad line throws `invalid_file` with `details {file, line}`. An unterminated last line is dropped. */
export function parseLineageExport(text: string, file: string): LineageRecord[] {
  const records: LineageRecord[] = [];
  for (const entry of completeLines(text).lines) {
    const value = parseJsonObject(file, entry);
    records.push(parseRecord(file, entry.line, "lineage record", LineageRecord, value));
  }
  return records;
}

/** Reads and parses a lineage export file. */
export async function readLineageExport(file: string): Promise<LineageRecord[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new RathError("io_error", `cannot read lineage export ${file}: ${(error as Error).message}`, { cause: error, details: { file } });
  }
  return parseLineageExport(text, file);
}
