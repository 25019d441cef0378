/**
 * The store-independent rules of a memory store (SPEC §5), shared by the local store and the engine's
 * database-backed store so that both rank, filter and commit exactly alike: which documents a recall
 * searches, how hits are ranked and cut, and which session texts a commit stores. Pure functions, no I/O.
 */
import { createHash } from "node:crypto";
import { chunkText, type MemoryHit } from "../session/chunk";
import type { Session } from "../session/session";
import { bm25Scores } from "./bm25";
import { MEMORY_SCOPES, parseMemoryUri } from "./memory-uri";

/** Length of a hit's snippet (SPEC §5). */
export const SNIPPET_LENGTH = 200;

/** One stored document: its URI and text. */
export interface MemoryDocument {
  uri: string;
  text: string;
}

/** The snippet of a hit: the first 200 characters of the trimmed text. */
export function memorySnippet(text: string): string {
  return text.trim().slice(0, SNIPPET_LENGTH);
}

/** The key that says two documents hold the same text (sha256 of the text as stored). */
export function memoryContentKey(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * The URI prefix a recall's `within` names (a scope such as `"user"`, or a URI prefix), or null for the
 * whole store. Refuses an invalid prefix with `invalid_memory_uri`.
 */
export function recallPrefix(within: string | undefined): string | null {
  if (within === undefined) return null;
  const uri = (MEMORY_SCOPES as readonly string[]).includes(within) ? `memory://${within}` : within;
  parseMemoryUri(uri, { allowScopeOnly: true });
  return uri.replace(/\/+$/, "");
}

/** True when the document URI lies at or under the prefix (null: everything). */
export function isWithin(uri: string, prefix: string | null): boolean {
  return prefix === null || uri === prefix || uri.startsWith(`${prefix}/`);
}

/**
 * BM25 ranking of the searched documents, in store order (earlier documents win ties): the `k` best hits with
 * a score above 0, best first. N and the average length are those of the given documents, so a recall within a
 * scope ranks as if the store held only that scope.
 */
export function rankByBm25(documents: readonly MemoryDocument[], query: string, k: number): MemoryHit[] {
  if (documents.length === 0 || k <= 0) return [];
  return bm25Scores(
    documents.map((document) => document.text),
    query,
  )
    .filter(({ score }) => score > 0)
    .slice(0, k)
    .map(({ index, score }) => {
      const document = documents[index] as MemoryDocument;
      return { uri: document.uri, score, snippet: memorySnippet(document.text) };
    });
}

/**
 * What a commit of the session stores, before deduplication: every non-blank user/assistant text (trimmed), at
 * `memory://session/{session id}/{index}-{kind}`, in chunk order.
 */
export function commitCandidates(session: Session): MemoryDocument[] {
  const candidates: MemoryDocument[] = [];
  let index = -1;
  for (const chunk of session.chunks) {
    index += 1;
    if (chunk.kind !== "user" && chunk.kind !== "assistant") continue;
    const text = chunkText(chunk).trim();
    if (text === "") continue;
    candidates.push({ uri: `memory://session/${session.id}/${index}-${chunk.kind}`, text });
  }
  return candidates;
}

/**
 * The candidates whose text the store does not hold yet (`isStored` answers by content key), keeping only the
 * first of candidates with the same text.
 */
export function newContent(candidates: readonly MemoryDocument[], isStored: (contentKey: string) => boolean): MemoryDocument[] {
  const seen = new Set<string>();
  return candidates.filter((candidate) => {
    const key = memoryContentKey(candidate.text);
    if (seen.has(key) || isStored(key)) return false;
    seen.add(key);
    return true;
  });
}
