import { readFile } from "node:fs/promises";
import { z } from "zod";
import { isRathError } from "../errors";
import { parseBundle } from "../files/bundle-reader";
import { completeLines } from "../files/jsonl-lines";
import { parseLineageExport } from "../files/lineage-export";
import { parsePythonJson } from "../files/python-json";
import { parseSessionText } from "../files/session-loader";
import type { Chunk } from "../session/chunk";
import { topologicalOrder } from "../session/graph";
import type { Session } from "../session/session";
import { Usage } from "../session/usage";
import { rollUpInspectUsage, type RolledUpUsage } from "./inspect-usage";

/** One row of `rath inspect --json`: a session from a persisted-session file, a bundle, or a lineage export line. */
export const SessionSummary = z.object({
  id: z.string(),
  parent_session_ids: z.array(z.string()),
  lineage_kind: z.string(),
  lineage_operator: z.string(),
  chunk_count: z.number().int(),
  /** true/false for persisted-session files; null for lineage lines and bundle sessions (no trailer concept). */
  closed: z.boolean().nullable(),
  /** Usage of the chunks the session added itself (runtime/session/usage-rollup.ts). */
  own_usage: Usage.nullable(),
  /** Own usage plus every distinct ancestor's among the files given (merges count a shared ancestor once). */
  cumulative_usage: Usage.nullable(),
  /** False when an ancestor is in none of the files given: `cumulative_usage` is then a lower bound. */
  ancestors_complete: z.boolean(),
  /** The usage the file records (the reference's `cumulative_usage`: own spend, a merge its parents' sum). */
  recorded_usage: Usage.nullable(),
  /** Tool calls in assistant chunks (null for lineage lines). */
  tool_calls: z.number().int().nullable(),
  /** tool_result chunks whose content JSON has `"ok": false` (null for lineage lines). */
  tool_errors: z.number().int().nullable(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

/** A file that could not be read, with the line at fault (null when no line is to blame). */
export const FileProblem = z.object({ file: z.string(), line: z.number().int().nullable(), message: z.string() });
export type FileProblem = z.infer<typeof FileProblem>;

/** A session summary before usage is rolled up across files, with the chunks that needs (null for lineage lines). */
export type SessionFacts = Omit<SessionSummary, "own_usage" | "cumulative_usage" | "ancestors_complete"> & { chunks: readonly Chunk[] | null };

/** What `rath inspect` learned from one file: its sessions, or the problem that stopped it. */
export interface FileSummary {
  kind: "session" | "lineage" | "bundle" | "unreadable";
  sessions: SessionFacts[];
  problem: FileProblem | null;
}

/**
 * The summaries of sessions read from all files, with usage rolled up across them, parents before children
 * (files come in the shell's glob order, which is id order). Rows of one session (its file and its lineage line)
 * stay together, otherwise in the order given.
 */
export function summariseSessions(facts: readonly SessionFacts[]): SessionSummary[] {
  const usage = rollUpInspectUsage(facts);
  const rank = new Map(topologicalOrder(facts).map((fact, position) => [fact.id, position]));
  const rankOf = (index: number) => rank.get((facts[index] as SessionFacts).id) as number;
  const order = facts.map((_, index) => index).sort((a, b) => rankOf(a) - rankOf(b) || a - b);
  return order.map((index) => {
    const fact = facts[index] as SessionFacts;
    return {
      id: fact.id,
      parent_session_ids: fact.parent_session_ids,
      lineage_kind: fact.lineage_kind,
      lineage_operator: fact.lineage_operator,
      chunk_count: fact.chunk_count,
      closed: fact.closed,
      ...(usage[index] as RolledUpUsage),
      recorded_usage: fact.recorded_usage,
      tool_calls: fact.tool_calls,
      tool_errors: fact.tool_errors,
    };
  });
}

/** A tool result whose content is a JSON object with `ok: false`, read as Python writes it (NaN allowed). */
function isToolError(content: string): boolean {
  if (!content.includes("ok")) return false;
  try {
    const value: unknown = parsePythonJson(content);
    return typeof value === "object" && value !== null && (value as { ok?: unknown }).ok === false;
  } catch {
    return false;
  }
}

/** Counts tool calls (in assistant chunks) and failed tool results. */
export function toolCounts(chunks: Iterable<Chunk>): { tool_calls: number; tool_errors: number } {
  let calls = 0;
  let errors = 0;
  for (const chunk of chunks) {
    if (chunk.kind === "assistant") calls += chunk.payload.tool_calls?.length ?? 0;
    else if (chunk.kind === "tool_result" && isToolError(chunk.payload.content)) errors += 1;
  }
  return { tool_calls: calls, tool_errors: errors };
}

function summarise(session: Session, closed: boolean | null): SessionFacts {
  const chunks = session.chunks.toArray();
  return {
    id: session.id,
    parent_session_ids: [...session.lineage.parent_session_ids],
    lineage_kind: session.lineage.lineage_kind,
    lineage_operator: session.lineage.lineage_operator,
    chunk_count: chunks.length,
    closed,
    recorded_usage: session.usage,
    ...toolCounts(chunks),
    chunks,
  };
}

function problemOf(file: string, error: unknown): FileProblem {
  if (isRathError(error)) {
    const line = typeof error.details?.line === "number" ? error.details.line : null;
    const prefix = `${file}:${line}: `;
    const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    return { file, line, message };
  }
  return { file, line: null, message: error instanceof Error ? error.message : String(error) };
}

/** Which format a file is in, from its first complete record: a header, a bundle record, or a lineage line. */
export function detectFormat(text: string): "session" | "lineage" | "bundle" {
  const first = completeLines(text).lines[0];
  if (!first) return "session";
  let value: unknown;
  try {
    value = JSON.parse(first.text);
  } catch {
    return "session";
  }
  if (typeof value !== "object" || value === null) return "session";
  const record = value as Record<string, unknown>;
  if (record.record_type === "bundle") return "bundle";
  if (record.record_type === undefined && typeof record.id === "string") return "lineage";
  return "session";
}

/** Reads one file named on the command line and summarises it; never throws. */
export async function summariseFile(file: string): Promise<FileSummary> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    return { kind: "unreadable", sessions: [], problem: { file, line: null, message: `cannot read file: ${(error as Error).message}` } };
  }
  const kind = detectFormat(text);
  try {
    if (kind === "lineage") {
      const records = parseLineageExport(text, file);
      return {
        kind,
        problem: null,
        sessions: records.map((record) => ({
          id: record.id,
          parent_session_ids: record.parent_session_ids,
          lineage_kind: record.lineage_kind,
          lineage_operator: record.lineage_operator,
          chunk_count: record.chunk_count,
          closed: null,
          recorded_usage: record.cumulative_usage,
          tool_calls: null,
          tool_errors: null,
          chunks: null,
        })),
      };
    }
    if (kind === "bundle") {
      // A bundle holds sessions as committed to the database: each one is complete, so closed.
      return { kind, problem: null, sessions: parseBundle(text, file).sessions.map((entry) => summarise(entry.session, true)) };
    }
    const loaded = parseSessionText(text, file);
    return { kind, problem: null, sessions: [summarise(loaded.session, loaded.facts.closed)] };
  } catch (error) {
    return { kind, sessions: [], problem: problemOf(file, error) };
  }
}
