/** How the chunk list asks `sessions.chunks` for pages (pure): fixed pages of 50 by index, cut at the session's count. */

/** Chunks per page. */
export const CHUNK_PAGE_SIZE = 50;

/** The `sessions.chunks` input of the page holding `index` (its key changes while a partial page fills). */
export function chunkPageInput(sessionId: string, index: number, chunkCount: number): { sessionId: string; fromIndex: number; toIndex: number; limit: number } {
  const fromIndex = Math.floor(index / CHUNK_PAGE_SIZE) * CHUNK_PAGE_SIZE;
  return { sessionId, fromIndex, toIndex: Math.min(fromIndex + CHUNK_PAGE_SIZE, Math.max(chunkCount, fromIndex + 1)), limit: CHUNK_PAGE_SIZE };
}

/** The distinct page starts of `indices`. */
export function pageStarts(indices: Iterable<number>): number[] {
  const starts = new Set<number>();
  for (const index of indices) starts.add(Math.floor(index / CHUNK_PAGE_SIZE) * CHUNK_PAGE_SIZE);
  return [...starts].sort((a, b) => a - b);
}
