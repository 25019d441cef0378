/**
 * The key of the session panel's chunk list, which decides when the list is mounted afresh. While the page follows a
 * live run's newest session the key stays "following" (a step that moves the shown session does not remount the
 * list). Choosing a chunk, or the session shown, only makes that session the chosen one: the list stays mounted
 * (the focused row keeps the focus, the scroll stays), until another session is shown. Pure.
 */

/** The key given and the session shown with it. */
export interface ChunkListKey {
  key: string;
  sessionId: string;
}

/** The key for `sessionId`, shown `following` or chosen, after `previous`. */
export function chunkListKey(previous: ChunkListKey | null, following: boolean, sessionId: string): ChunkListKey {
  if (following) return { key: "following", sessionId };
  if (previous !== null && previous.key === "following" && previous.sessionId === sessionId) return previous;
  return { key: sessionId, sessionId };
}
