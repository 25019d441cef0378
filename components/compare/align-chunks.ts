/**
 * Pure: lines up the chunks of two sessions after their divergence, and diffs the text inside a changed pair word
 * by word. Chunks are anchored by their shape (kind, and the tool for tool results and tool calls) with a longest
 * common subsequence, so one extra tool round on one side does not shift every later pair; the chunks between two
 * anchors are paired in order, and what is left over shows on its side alone.
 */
import { diffWordsWithSpace } from "diff";
import type { SessionChunk } from "../trpc/router-types";

/** A chunk as the API sends it. */
type Chunk = SessionChunk["chunk"];

/** A chunk with its index in its session. */
export interface IndexedChunk {
  index: number;
  chunk: Chunk;
}

/** One row of the aligned view: a pair (same or changed), or a chunk on one side only. */
export type AlignedRow =
  | { kind: "pair"; left: IndexedChunk; right: IndexedChunk; same: boolean }
  | { kind: "left"; left: IndexedChunk }
  | { kind: "right"; right: IndexedChunk };

/** Above this many cells the alignment is positional (the LCS table would be too big for a browser frame). */
export const MAX_ALIGN_CELLS = 250_000;

/** The text a chunk shows and is diffed on. */
export function comparableText(chunk: Chunk): string {
  switch (chunk.kind) {
    case "system":
    case "user":
      return chunk.payload.content;
    case "assistant": {
      const calls = (chunk.payload.tool_calls ?? []).map((call) => `→ ${call.function.name}(${call.function.arguments})`);
      return [chunk.payload.content ?? "", ...calls].filter((part) => part !== "").join("\n");
    }
    case "tool_result":
      return chunk.payload.content;
    default:
      return JSON.stringify(chunk.payload, null, 2);
  }
}

/** The shape two chunks must share to be aligned with each other. */
export function chunkShape(chunk: Chunk): string {
  if (chunk.kind === "tool_result") return `tool_result:${chunk.payload.name}`;
  if (chunk.kind === "assistant") return `assistant:${(chunk.payload.tool_calls ?? []).map((call) => call.function.name).join(",")}`;
  return chunk.kind;
}

function samePair(left: Chunk, right: Chunk): boolean {
  return left.kind === right.kind && comparableText(left) === comparableText(right);
}

/** Pairs a gap between anchors in order; the longer side's rest shows alone. */
function pairGap(rows: AlignedRow[], left: readonly IndexedChunk[], right: readonly IndexedChunk[]): void {
  const shared = Math.min(left.length, right.length);
  for (let offset = 0; offset < shared; offset += 1) {
    const a = left[offset] as IndexedChunk;
    const b = right[offset] as IndexedChunk;
    rows.push({ kind: "pair", left: a, right: b, same: samePair(a.chunk, b.chunk) });
  }
  for (const rest of left.slice(shared)) rows.push({ kind: "left", left: rest });
  for (const rest of right.slice(shared)) rows.push({ kind: "right", right: rest });
}

/** Aligns two chunk lists (each in index order). */
export function alignChunks(left: readonly IndexedChunk[], right: readonly IndexedChunk[]): AlignedRow[] {
  const rows: AlignedRow[] = [];
  if (left.length * right.length > MAX_ALIGN_CELLS) {
    pairGap(rows, left, right);
    return rows;
  }
  const leftShapes = left.map((entry) => chunkShape(entry.chunk));
  const rightShapes = right.map((entry) => chunkShape(entry.chunk));
  const width = right.length + 1;
  // lengths[i * width + j] = LCS length of left[i..] and right[j..].
  const lengths = new Uint32Array((left.length + 1) * width);
  for (let i = left.length - 1; i >= 0; i -= 1) {
    for (let j = right.length - 1; j >= 0; j -= 1) {
      lengths[i * width + j] =
        leftShapes[i] === rightShapes[j] ? (lengths[(i + 1) * width + j + 1] as number) + 1 : Math.max(lengths[(i + 1) * width + j] as number, lengths[i * width + j + 1] as number);
    }
  }
  let i = 0;
  let j = 0;
  let gapLeft = 0;
  let gapRight = 0;
  while (i < left.length && j < right.length) {
    if (leftShapes[i] === rightShapes[j] && lengths[i * width + j] === (lengths[(i + 1) * width + j + 1] as number) + 1) {
      pairGap(rows, left.slice(gapLeft, i), right.slice(gapRight, j));
      const a = left[i] as IndexedChunk;
      const b = right[j] as IndexedChunk;
      rows.push({ kind: "pair", left: a, right: b, same: samePair(a.chunk, b.chunk) });
      i += 1;
      j += 1;
      gapLeft = i;
      gapRight = j;
    } else if ((lengths[(i + 1) * width + j] as number) >= (lengths[i * width + j + 1] as number)) {
      i += 1;
    } else {
      j += 1;
    }
  }
  pairGap(rows, left.slice(gapLeft), right.slice(gapRight));
  return rows;
}

/** One piece of a word diff: text both share, or text only the left (removed) or the right (added) has. */
export interface DiffPart {
  text: string;
  change: "same" | "removed" | "added";
}

/** A word-level diff of two texts (whitespace kept, so the parts join back to each side's text). */
export function wordDiff(left: string, right: string): DiffPart[] {
  return diffWordsWithSpace(left, right).map((part) => ({ text: part.value, change: part.added ? "added" : part.removed ? "removed" : "same" }));
}

/** The token and latency of one chunk (a model's answer carries both; others neither). */
export function chunkCost(chunk: Chunk): { tokens: number; latencyMs: number } {
  return { tokens: chunk.meta.usage?.total_tokens ?? 0, latencyMs: chunk.meta.latency_ms ?? 0 };
}

/** A signed difference for display: `+120`, `−35`, `±0`. */
export function formatDelta(value: number, unit = ""): string {
  const rounded = Math.round(value);
  const magnitude = Math.abs(rounded).toLocaleString("en-US");
  return `${rounded > 0 ? "+" : rounded < 0 ? "−" : "±"}${magnitude}${unit}`;
}
