import type { MemoryHit } from "../session/chunk";
import type { Session } from "../session/session";

export type { MemoryHit } from "../session/chunk";

/** Options of a recall: how many hits and, optionally, a scope or URI prefix to search under. */
export interface RecallOptions {
  /** A scope (a `MemoryScope` such as `"user"`) or a URI prefix (`"memory://user/notes"`); absent means the whole store. */
  within?: string;
}

/** What `commit` stored: how many documents and their URIs. */
export interface CommitResult {
  count: number;
  uris: string[];
}

/**
 * The port every memory store implements (the local BM25 store here; external stores as adapters).
 * URIs are `memory://{user|agent|session|resources}/...`; stores refuse others with `invalid_memory_uri`.
 */
export interface MemoryStore {
  /** Display name recorded in `memory` chunks and events. */
  readonly name: string;
  /** Stores (or replaces) one document. */
  remember(uri: string, text: string): Promise<void>;
  /** The `k` best documents for the query, best first. */
  recall(query: string, k: number, options?: RecallOptions): Promise<MemoryHit[]>;
  /** Stores the session's user/assistant text that the store does not hold yet. */
  commit(session: Session): Promise<CommitResult>;
}

/** Optional embeddings hook: when a store has one, recall ranks by cosine similarity instead of BM25. */
export interface EmbeddingFunction {
  embed(texts: string[]): Promise<number[][]>;
}
