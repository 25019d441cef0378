/**
 * The memory store the engine gives Memory nodes: one store per (workflow, store name), kept in the database so
 * every worker sees it and it outlives restarts. It ranks, filters and commits with the same functions as the
 * runtime's `LocalMemoryStore` (runtime/memory/memory-documents.ts), so a workflow recalls exactly what the local
 * store would have recalled after the same operations.
 */
import { commitCandidates, isWithin, rankByBm25, recallPrefix } from "../../runtime/memory/memory-documents";
import type { CommitResult, MemoryHit, MemoryStore, RecallOptions } from "../../runtime/memory/memory-store";
import { parseMemoryUri } from "../../runtime/memory/memory-uri";
import type { Session } from "../../runtime/session/session";
import type { Database } from "../db/database";
import { readMemoryDocuments, writeMemoryDocuments, type MemoryStoreKey } from "../db/memory-documents";

/** A workflow's named memory store in the database (BM25 recall, as the local store). */
export class WorkflowMemoryStore implements MemoryStore {
  readonly name: string;
  private readonly key: MemoryStoreKey;

  constructor(
    private readonly database: Database,
    workflowId: string,
    name: string,
  ) {
    this.name = name;
    this.key = { workflowId, store: name };
  }

  async remember(uri: string, text: string): Promise<void> {
    parseMemoryUri(uri);
    await writeMemoryDocuments(this.database, this.key, [{ uri, text }]);
  }

  async recall(query: string, k: number, options: RecallOptions = {}): Promise<MemoryHit[]> {
    const prefix = recallPrefix(options.within);
    if (k <= 0) return [];
    const documents = (await readMemoryDocuments(this.database, this.key)).filter((document) => isWithin(document.uri, prefix));
    return rankByBm25(documents, query, k);
  }

  async commit(session: Session): Promise<CommitResult> {
    const written = await writeMemoryDocuments(this.database, this.key, commitCandidates(session), { onlyNewContent: true });
    return { count: written.length, uris: written.map((document) => document.uri) };
  }
}
