/**
 * Workflow memory stores (SPEC §5) in the database: the documents a workflow's runs remember and commit, shared by
 * every worker and kept across restarts. A store is `(workflow, name)`; its documents keep the order they were
 * written in (`seq`), which is the order BM25 ties are broken in. Ranking is not done here: the engine reads a
 * store's documents and ranks them with the runtime's own functions (runtime/memory/memory-documents.ts).
 */
import { z } from "zod";
import { memoryContentKey, newContent, type MemoryDocument } from "../../runtime/memory/memory-documents";
import type { Database } from "./database";
import { inList, insertRows, rawStatements } from "./raw-sql";
import { redactStoredText } from "./stored-secrets";

/** Which store: the workflow it belongs to and the name its Memory nodes give. */
export const MemoryStoreKey = z.object({ workflowId: z.string().min(1), store: z.string().min(1) });
export type MemoryStoreKey = z.infer<typeof MemoryStoreKey>;

/** Most values one `IN (...)` list binds (well under both providers' parameter limits). */
const IN_LIST_BATCH = 10_000;

function batches<T>(values: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < values.length; start += IN_LIST_BATCH) result.push(values.slice(start, start + IN_LIST_BATCH));
  return result;
}

const Documents = z.array(z.object({ uri: z.string().min(1), text: z.string() }));

/** Options of `writeMemoryDocuments`. */
export interface WriteMemoryOptions {
  /**
   * Commit semantics: store only documents whose text the store does not hold yet (and only the first of several
   * with the same text). Without it every document is stored, replacing one at the same URI.
   */
  onlyNewContent?: boolean;
}

/** The store's documents in the order they were written (a replaced document counts from its last write). */
export async function readMemoryDocuments(database: Database, key: MemoryStoreKey): Promise<MemoryDocument[]> {
  const { workflowId, store } = MemoryStoreKey.parse(key);
  const rows = await database.client.memoryDocument.findMany({
    where: { workflowId, store },
    orderBy: { seq: "asc" },
    select: { uri: true, text: true },
  });
  return rows;
}

/**
 * Writes documents to the store in one transaction and returns those written, in order. A document at a URI the
 * store holds replaces it and moves to the end of the store's order. The store row is created on first use and
 * updated first in every write, so on PostgreSQL concurrent writers to one store take turns (SQLite has one
 * writer anyway): deduplication by content sees every earlier write.
 */
export async function writeMemoryDocuments(
  database: Database,
  key: MemoryStoreKey,
  documents: readonly MemoryDocument[],
  options: WriteMemoryOptions = {},
): Promise<MemoryDocument[]> {
  const { workflowId, store } = MemoryStoreKey.parse(key);
  // Memory outlives the run: configured secrets never go in (stored-secrets.ts).
  const candidates = Documents.parse(documents).map((document) => ({ ...document, text: redactStoredText(document.text) }));
  if (candidates.length === 0) return [];
  const now = new Date();
  return database.transaction(async (transaction) => {
    const statements = rawStatements(database, transaction);
    await statements.execute(
      `INSERT INTO "memory_stores" ("workflow_id", "name", "last_seq", "created_at", "updated_at") VALUES (?, ?, 0, ?, ?) ON CONFLICT DO NOTHING`,
      workflowId,
      store,
      now,
      now,
    );
    const [locked] = await statements.query<{ last_seq: number | bigint }>(
      `UPDATE "memory_stores" SET "updated_at" = ? WHERE "workflow_id" = ? AND "name" = ? RETURNING "last_seq"`,
      now,
      workflowId,
      store,
    );
    const lastSeq = Number(locked?.last_seq ?? 0);
    let written = candidates;
    if (options.onlyNewContent) {
      const keys = [...new Set(candidates.map((document) => memoryContentKey(document.text)))];
      const storedKeys = new Set<string>();
      for (const batch of batches(keys)) {
        const stored = await statements.query<{ content_key: string }>(
          `SELECT DISTINCT "content_key" FROM "memory_documents" WHERE "workflow_id" = ? AND "store" = ? AND "content_key" IN (${inList(batch.length)})`,
          workflowId,
          store,
          ...batch,
        );
        for (const row of stored) storedKeys.add(row.content_key);
      }
      written = newContent(candidates, (contentKey) => storedKeys.has(contentKey));
    } else {
      // The last of several documents for one URI wins, as successive writes would.
      const last = new Map(candidates.map((document) => [document.uri, document]));
      written = candidates.filter((document) => last.get(document.uri) === document);
    }
    if (written.length === 0) return [];
    for (const uris of batches(written.map((document) => document.uri))) {
      await statements.execute(`DELETE FROM "memory_documents" WHERE "workflow_id" = ? AND "store" = ? AND "uri" IN (${inList(uris.length)})`, workflowId, store, ...uris);
    }
    await insertRows(
      statements,
      "memory_documents",
      ["workflow_id", "store", "uri", "text", "content_key", "seq", "created_at"],
      written.map((document, index) => [workflowId, store, document.uri, document.text, memoryContentKey(document.text), lastSeq + index + 1, now]),
    );
    await statements.execute(`UPDATE "memory_stores" SET "last_seq" = ? WHERE "workflow_id" = ? AND "name" = ?`, lastSeq + written.length, workflowId, store);
    return written;
  });
}
