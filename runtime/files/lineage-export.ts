import { randomBytes } from "node:crypto";
import { closeSync, openSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { isRathError, RathError } from "../errors";
import type { LineageExtras } from "../session/lineage";
import type { SessionSnapshot } from "../session/session";
import type { Session } from "../session/session";
import type { Usage } from "../session/usage";
import { jsonValueText, quote } from "./json-text";
import { LineageLineWriter, type LineageText } from "./lineage-bytes";
import { completeLines, parseJsonObject, parseRecord } from "./jsonl-lines";
import { PieceWrites } from "./piece-writes";
import { LineageRecord } from "./records";
import { replaceFile } from "./replace-file";
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
    out += `${first ? "" : ","}[${quote(key)},${extraValueText(pair[1])}]`;
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

/** Bytes per write (a buffer this size is filled with lines, then written). */
const PIECE_BYTES = 256 * 1024;

function extraValueText(value: unknown): string {
  return jsonValueText(typeof value === "object" && value !== null ? stripSecrets(value) : value);
}

const lineText: LineageText = { quote, isSecret: isSecretKey, value: extraValueText };

/**
 * Writes the lineage export of these sessions to `file` (mode 0600), replacing it whole: the lines are written as
 * bytes into a buffer (`lineage-bytes.ts`; the same bytes as `exportLineage`), each full buffer goes to a temporary
 * file next to it on the thread pool while the next one is filled (`piece-writes.ts`), and the temporary file is
 * then closed and renamed over `file` (`replace-file.ts`: the replaced file is freed off this thread). A failure
 * leaves `file` as it was. No fsync (the reference's `write_text` does none either).
 *
 * The open, close and rename run on this thread: each hand-off to the thread pool is a round trip, and on a
 * loaded 2-core machine its thread waits for a core (bench/README.md, 2026-12-04). The event loop still gets a
 * turn after every piece.
 */
export async function writeLineageExport(file: string, sources: Iterable<LineageSource>): Promise<void> {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  let fd: number | null = null;
  let pieces: PieceWrites | null = null;
  try {
    fd = openSync(temporary, "wx", 0o600);
    pieces = new PieceWrites(fd, PIECE_BYTES);
    const writer = new LineageLineWriter(lineText);
    let buffer = await pieces.next();
    let at = 0;
    for (const source of sources) {
      let end = writer.line(buffer, at, buffer.length, source);
      if (end < 0) {
        pieces.add(buffer, at);
        // Let other work on the event loop run between pieces (and the finished writes hand their buffers back).
        await new Promise<void>((resolve) => setImmediate(resolve));
        buffer = await pieces.next();
        // A line longer than the buffer gets a larger one.
        while ((end = writer.line(buffer, 0, buffer.length, source)) < 0) buffer = Buffer.allocUnsafe(buffer.length * 4);
      }
      at = end;
    }
    pieces.add(buffer, at);
    await pieces.settle();
    pieces.release();
    closeSync(fd);
    fd = null;
    replaceFile(temporary, file);
  } catch (error) {
    if (fd !== null) {
      // No write may still be running on the descriptor when it is closed (its number could be reused).
      await pieces?.settle().catch(() => undefined);
      pieces?.release();
      try {
        closeSync(fd);
      } catch {
        // already failing; the temporary file is removed below
      }
    }
    rmSync(temporary, { force: true });
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
