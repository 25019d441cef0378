import type { Session } from "../session/session";

/**
 * Releases the sandbox references of a composition's intermediate sessions, one per session id (snapshots of
 * one id share one reference), except the ids in `keep` (the composition's input and its result): after a
 * workflow, only the sessions its caller holds keep the handle open.
 */
export async function releaseIntermediates(intermediates: readonly Session[], keep: readonly Session[]): Promise<void> {
  const kept = new Set(keep.map((session) => session.id));
  const released = new Set<string>();
  for (const session of intermediates) {
    if (kept.has(session.id) || released.has(session.id)) continue;
    released.add(session.id);
    await session.release();
  }
}
