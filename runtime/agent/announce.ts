import type { RunContext } from "../context";
import type { Chunk } from "../session/chunk";
import type { Session } from "../session/session";

const ANNOUNCED = "rath.announced_session_ids";

/**
 * Resource key of an optional `(session: Session) => void` in `context.resources` that receives every session
 * announced (once per run), so a recorder such as the durable engine can store its chunks and placement.
 */
export const SESSION_OBSERVER_RESOURCE = "rath.session_observer";

/**
 * Emits `session.created` for a session once per run (deduplicated through `context.resources`), so that a
 * component's own root session (an agent's instructions) appears in the graph exactly once however often
 * the component runs. Without shared resources it emits every time. `chunkCount` announces an earlier
 * snapshot (the chunks after it follow as `chunk.appended`).
 */
export function announceSession(context: RunContext, session: Session, options: { chunkCount?: number } = {}): void {
  const resources = context.resources;
  if (resources) {
    let seen = resources.get(ANNOUNCED) as Set<string> | undefined;
    if (!seen) {
      seen = new Set();
      resources.set(ANNOUNCED, seen);
    }
    if (seen.has(session.id)) return;
    seen.add(session.id);
    const observer = resources.get(SESSION_OBSERVER_RESOURCE) as ((announced: Session) => void) | undefined;
    observer?.(session);
  }
  context.emit({ type: "session.created", session_id: session.id, lineage: session.toSnapshot().lineage, chunk_count: options.chunkCount ?? session.chunks.length });
}

/** Emits `chunk.appended` for the chunks of `session` from index `from` on. */
export function announceChunks(context: RunContext, session: Session, from: number): void {
  const chunks = session.chunks.slice(from);
  for (let i = 0; i < chunks.length; i++) {
    context.emit({ type: "chunk.appended", session_id: session.id, index: from + i, chunk: chunks[i] as Chunk });
  }
}
