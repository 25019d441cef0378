/**
 * The rows of a session's chunk list (pure): the session's segments (`sessions.segments`: inherited, a merge's
 * shared prefix once, each branch, the repeated prefix, the join point, its own chunks) as header rows, and the
 * chunks of every expanded segment. A merge's shared prefix and its repetition start collapsed, so the shared part
 * is shown once; a live session's own segment grows with its chunk count.
 */
import type { RouterOutputs } from "../trpc/router-types";

/** One segment as the API returns it. */
export type ChunkSegment = RouterOutputs["sessions"]["segments"]["segments"][number];

/** A row of the list. */
export type ChunkRow =
  | { type: "segment"; key: string; segment: ChunkSegment; collapsed: boolean }
  | { type: "join"; key: string; at: number }
  | { type: "chunk"; key: string; index: number };

/** Segments before the API answered (or for a session without parents): inherited, then own. */
export function fallbackSegments(chunkCount: number, inheritedChunkCount: number, firstParentId: string | null): ChunkSegment[] {
  const inherited = Math.min(inheritedChunkCount, chunkCount);
  const segments: ChunkSegment[] = [];
  if (inherited > 0) segments.push({ kind: "inherited", from: 0, to: inherited, sourceSessionId: firstParentId, sameAs: null });
  if (chunkCount > inherited) segments.push({ kind: "own", from: inherited, to: chunkCount, sourceSessionId: null, sameAs: null });
  return segments;
}

/** The segments stretched to `chunkCount` (chunks appended after the answer belong to the session itself). */
export function growSegments(segments: readonly ChunkSegment[], chunkCount: number): ChunkSegment[] {
  const end = segments.reduce((max, segment) => Math.max(max, segment.to), 0);
  if (chunkCount <= end) return [...segments];
  const last = segments[segments.length - 1];
  if (last !== undefined && last.kind === "own") return [...segments.slice(0, -1), { ...last, to: chunkCount }];
  return [...segments, { kind: "own", from: end, to: chunkCount, sourceSessionId: null, sameAs: null }];
}

/** The key of a segment (stable while the session grows). */
export function segmentKey(segment: ChunkSegment): string {
  return `${segment.kind}:${segment.from}`;
}

/** Whether a segment starts collapsed: the shared prefix of a merge and its repetition. */
export function collapsedByDefault(segment: ChunkSegment): boolean {
  return segment.kind === "shared" || segment.kind === "repeated";
}

/**
 * The rows. `toggled` holds the keys of segments the user opened or closed (flipping the default); the segment
 * holding `reveal` (a chunk selected from the URL or a jump) is always open. A session with one segment lists
 * its chunks without a header.
 */
export function chunkRows(segments: readonly ChunkSegment[], toggled: ReadonlySet<string>, reveal: number | null): ChunkRow[] {
  const rows: ChunkRow[] = [];
  const headers = segments.filter((segment) => segment.kind !== "join").length > 1;
  for (const segment of segments) {
    const key = segmentKey(segment);
    if (segment.kind === "join") {
      rows.push({ type: "join", key, at: segment.from });
      continue;
    }
    const holdsReveal = reveal !== null && reveal >= segment.from && reveal < segment.to;
    const collapsed = holdsReveal ? false : collapsedByDefault(segment) !== toggled.has(key);
    if (headers) rows.push({ type: "segment", key, segment, collapsed });
    if (collapsed && headers) continue;
    for (let index = segment.from; index < segment.to; index += 1) rows.push({ type: "chunk", key: `c${index}`, index });
  }
  return rows;
}
