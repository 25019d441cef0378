import type { RunContext } from "../context";
import { chunkText, makeChunk, type MemoryHit } from "../session/chunk";
import type { Session } from "../session/session";
import type { MemoryStore, RecallOptions } from "./memory-store";

/** How an Agent uses memory: recall before its loop, commit after. */
export interface MemoryPolicy {
  store: MemoryStore;
  /** Recall before the loop (default true): `k` hits (default 4), optionally within a scope or URI prefix. */
  recall?: boolean | { k?: number; within?: RecallOptions["within"] };
  /** Commit the output session's new user/assistant text after the loop (default false, as in the reference). */
  commit?: boolean;
  /**
   * After the loop (before a commit), store the agent's answer (its last assistant text) at this URI, replacing
   * what was there. Default: nothing is remembered.
   */
  remember?: { uri: string };
}

/** Default number of hits an Agent recalls. */
export const DEFAULT_RECALL_K = 4;

/** The text of the session's last non-blank `user` chunk (the recall query), or null. */
export function lastUserMessage(session: Session): string | null {
  for (let index = session.chunks.length - 1; index >= 0; index--) {
    const chunk = session.chunks.at(index);
    if (chunk?.kind === "user" && chunk.payload.content.trim() !== "") return chunk.payload.content;
  }
  return null;
}

/** The text a remember stores by default: the session's last non-blank assistant text, else its last user text, or null. */
export function lastAnswerText(session: Session): string | null {
  for (const kind of ["assistant", "user"] as const) {
    for (let index = session.chunks.length - 1; index >= 0; index--) {
      const chunk = session.chunks.at(index);
      if (chunk?.kind === kind && chunkText(chunk).trim() !== "") return chunkText(chunk);
    }
  }
  return null;
}

/**
 * Recalls with the last user message as the query. With hits, returns a fork of the session with a
 * `memory` recall chunk appended (the model sees each hit as a system message `[memory:{uri}] {snippet}`,
 * as the reference injects them); without hits or without a user message, the session unchanged.
 */
export async function recallInto(
  session: Session,
  store: MemoryStore,
  context: RunContext,
  options: { k?: number; within?: RecallOptions["within"]; producer?: string } = {},
): Promise<{ session: Session; hits: MemoryHit[] }> {
  const query = lastUserMessage(session);
  if (query === null) return { session, hits: [] };
  const hits = await store.recall(query, options.k ?? DEFAULT_RECALL_K, { within: options.within });
  context.emit({ type: "memory.recalled", store: store.name, query, hits: hits.length });
  if (hits.length === 0) return { session, hits };
  const chunk = makeChunk("memory", { op: "recall", store: store.name, query, hits }, { producer: options.producer ?? store.name });
  return { session: session.fork().append(chunk), hits };
}

/** Commits the session's new user/assistant text and returns the session with a `memory` commit chunk appended. */
export async function commitFrom(
  session: Session,
  store: MemoryStore,
  context: RunContext,
  options: { producer?: string } = {},
): Promise<Session> {
  const result = await store.commit(session);
  context.emit({ type: "memory.committed", store: store.name, count: result.count });
  return session.append(
    makeChunk("memory", { op: "commit", store: store.name, count: result.count }, { producer: options.producer ?? store.name }),
  );
}

/** Stores one document and returns the session with a `memory` remember chunk appended. */
export async function rememberInto(
  session: Session,
  store: MemoryStore,
  uri: string,
  text: string,
  context: RunContext,
  options: { producer?: string } = {},
): Promise<Session> {
  await store.remember(uri, text);
  context.emit({ type: "memory.remembered", store: store.name, uri });
  return session.append(makeChunk("memory", { op: "remember", store: store.name, uri, count: 1 }, { producer: options.producer ?? store.name }));
}
