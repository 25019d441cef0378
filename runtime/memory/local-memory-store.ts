import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import { RathError } from "../errors";
import type { MemoryHit } from "../session/chunk";
import type { Session } from "../session/session";
import { commitCandidates, isWithin, memoryContentKey, memorySnippet, newContent, rankByBm25, recallPrefix, type MemoryDocument } from "./memory-documents";
import type { CommitResult, EmbeddingFunction, MemoryStore, RecallOptions } from "./memory-store";
import { parseMemoryUri } from "./memory-uri";

/** The JSON file a persistent local store writes (schema-versioned). */
export const LocalMemoryFile = z.object({
  schema_version: z.literal(1),
  documents: z.array(z.object({ uri: z.string(), text: z.string() })),
});
export type LocalMemoryFile = z.infer<typeof LocalMemoryFile>;

/** Options of a local store. */
export interface LocalMemoryStoreOptions {
  /** Name in `memory` chunks and events; default "local". */
  name?: string;
  /** A JSON file to load at construction and rewrite (atomically) after every change. */
  path?: string;
  /** When given, recall ranks by cosine similarity of embeddings (BM25 when it fails). */
  embeddings?: EmbeddingFunction;
}

function cosine(left: readonly number[], right: readonly number[]): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const a = left[i] ?? 0;
    const b = right[i] ?? 0;
    dot += a * b;
    leftNorm += a * a;
    rightNorm += b * b;
  }
  return leftNorm === 0 || rightNorm === 0 ? 0 : dot / Math.sqrt(leftNorm * rightNorm);
}

/**
 * The built-in memory store: documents in memory (optionally persisted to one JSON file), ranked with BM25
 * over `[A-Za-z0-9]+` tokens, or by embeddings when a hook is given. Hits with score 0 (no shared term) are
 * not returned.
 */
export class LocalMemoryStore implements MemoryStore {
  readonly name: string;
  private readonly path: string | undefined;
  private readonly embeddings: EmbeddingFunction | undefined;
  /** Insertion-ordered so that ties rank in the order documents were stored. */
  private readonly documents = new Map<string, string>();
  /** How many documents hold each text (by content key), so a commit stores only new text. */
  private readonly contentKeys = new Map<string, number>();
  private readonly embeddingCache = new Map<string, number[]>();

  constructor(options: LocalMemoryStoreOptions = {}) {
    this.name = options.name ?? "local";
    this.path = options.path;
    this.embeddings = options.embeddings;
    if (this.path) this.load(this.path);
  }

  /** Number of documents held. */
  get size(): number {
    return this.documents.size;
  }

  /** The text stored at a URI, or undefined. */
  read(uri: string): string | undefined {
    parseMemoryUri(uri);
    return this.documents.get(uri);
  }

  async remember(uri: string, text: string): Promise<void> {
    parseMemoryUri(uri);
    this.put(uri, text);
    this.save();
  }

  async recall(query: string, k: number, options: RecallOptions = {}): Promise<MemoryHit[]> {
    const prefix = recallPrefix(options.within);
    const documents: MemoryDocument[] = [];
    for (const [uri, text] of this.documents) if (isWithin(uri, prefix)) documents.push({ uri, text });
    if (documents.length === 0 || k <= 0) return [];
    const ranked = this.embeddings ? await this.rankByEmbeddings(documents, query) : null;
    return ranked === null ? rankByBm25(documents, query, k) : ranked.filter((hit) => hit.score > 0).slice(0, k);
  }

  async commit(session: Session): Promise<CommitResult> {
    const stored = newContent(commitCandidates(session), (key) => this.contentKeys.has(key));
    for (const document of stored) this.put(document.uri, document.text);
    if (stored.length > 0) this.save();
    return { count: stored.length, uris: stored.map((document) => document.uri) };
  }

  /** Cosine ranking; null (fall back to BM25) when the hook fails or returns the wrong shape. */
  private async rankByEmbeddings(documents: MemoryDocument[], query: string): Promise<MemoryHit[] | null> {
    const embeddings = this.embeddings;
    if (!embeddings) return null;
    try {
      const missing = documents.filter(({ uri }) => !this.embeddingCache.has(uri));
      const vectors = await embeddings.embed([query, ...missing.map(({ text }) => text)]);
      if (vectors.length !== missing.length + 1) return null;
      missing.forEach(({ uri }, i) => this.embeddingCache.set(uri, vectors[i + 1] ?? []));
      const queryVector = vectors[0] ?? [];
      return documents
        .map(({ uri, text }, index) => ({ uri, index, score: cosine(queryVector, this.embeddingCache.get(uri) ?? []), snippet: memorySnippet(text) }))
        .sort((left, right) => right.score - left.score || left.index - right.index)
        .map(({ uri, score, snippet }) => ({ uri, score, snippet }));
    } catch {
      return null;
    }
  }

  private put(uri: string, text: string): void {
    const previous = this.documents.get(uri);
    if (previous !== undefined) {
      const key = memoryContentKey(previous);
      const holders = (this.contentKeys.get(key) ?? 1) - 1;
      if (holders > 0) this.contentKeys.set(key, holders);
      else this.contentKeys.delete(key);
    }
    this.documents.delete(uri);
    this.documents.set(uri, text);
    const key = memoryContentKey(text);
    this.contentKeys.set(key, (this.contentKeys.get(key) ?? 0) + 1);
    this.embeddingCache.delete(uri);
  }

  private load(path: string): void {
    let raw: string;
    try {
      raw = readFileSync(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw new RathError("io_error", `cannot read memory file '${path}': ${(error as Error).message}`, { cause: error });
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      throw new RathError("invalid_file", `memory file '${path}' is not valid JSON: ${(error as Error).message}`, { cause: error });
    }
    const parsed = LocalMemoryFile.safeParse(json);
    if (!parsed.success) {
      throw new RathError("invalid_file", `memory file '${path}' does not match schema version 1: ${parsed.error.message}`);
    }
    for (const document of parsed.data.documents) {
      parseMemoryUri(document.uri);
      this.put(document.uri, document.text);
    }
  }

  /** Why a temporary file and a rename: a crash mid-write must not leave a truncated store behind. */
  private save(): void {
    if (!this.path) return;
    const file: LocalMemoryFile = {
      schema_version: 1,
      documents: [...this.documents].map(([uri, text]) => ({ uri, text })),
    };
    const temporary = `${this.path}.__partial__`;
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      writeFileSync(temporary, JSON.stringify(file, null, 2));
      renameSync(temporary, this.path);
    } catch (error) {
      throw new RathError("io_error", `cannot write memory file '${this.path}': ${(error as Error).message}`, { cause: error });
    }
  }
}
