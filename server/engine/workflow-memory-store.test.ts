import { expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import { LocalMemoryStore } from "../../runtime/memory/local-memory-store";
import type { MemoryStore } from "../../runtime/memory/memory-store";
import { makeChunk } from "../../runtime/session/chunk";
import { Session } from "../../runtime/session/session";
import { readMemoryDocuments, writeMemoryDocuments } from "../db/memory-documents";
import { describeEachDatabase } from "../db/testing/test-databases";
import { createWorkflow } from "../db/workflow-store";
import { WorkflowMemoryStore } from "./workflow-memory-store";

const SESSION = Session.create("user", "I like green tea with banana bread")
  .append(makeChunk("assistant", { content: "Noted: green tea.", tool_calls: null }))
  .append(makeChunk("tool_result", { tool_call_id: "c", name: "t", content: "{}" }))
  .append(makeChunk("user", { content: "  durian  " }))
  .append(makeChunk("user", { content: "Noted: green tea." }));

/** The same operations, in the same order, on any store. */
async function apply(store: MemoryStore): Promise<void> {
  await store.remember("memory://user/fruit/a", "apple banana apple");
  await store.remember("memory://agent/fruit/b", "banana cherry");
  await store.remember("memory://user/fruit/c", "durian");
  // Equal scores for "kiwi": the earlier document wins the tie...
  await store.remember("memory://resources/tie/first", "kiwi mango");
  await store.remember("memory://resources/tie/second", "kiwi papaya");
  // ...until the first is written again: a rewrite moves a document to the end of the store's order.
  await store.remember("memory://resources/tie/first", "kiwi mango");
  await store.remember("memory://resources/long", `needle ${"x".repeat(400)}`);
  const committed = await store.commit(SESSION);
  // "durian" (trimmed) is already stored, and the repeated text is committed once.
  expect(committed.count).toBe(2);
  expect((await store.commit(SESSION)).count).toBe(0);
}

const QUERIES: Array<{ query: string; k: number; within?: string }> = [
  { query: "banana", k: 5 },
  { query: "banana", k: 1 },
  { query: "banana", k: 5, within: "user" },
  { query: "cherry", k: 5, within: "memory://agent/fruit" },
  { query: "kiwi", k: 5 },
  { query: "kiwi", k: 5, within: "resources" },
  { query: "needle", k: 1 },
  { query: "green tea banana", k: 10 },
  { query: "green tea banana", k: 10, within: "session" },
  { query: "zebra", k: 5 },
  { query: "!!!", k: 5 },
  { query: "apple", k: 0 },
];

describeEachDatabase("workflow memory stores in the database", (open) => {
  it("recall exactly what the runtime's local store recalls after the same operations (BM25 scores, ties, scopes, snippets)", async () => {
    const { database } = await open();
    const workflow = await createWorkflow(database, { name: "memory" });
    const local = new LocalMemoryStore({ name: "notes" });
    const stored = new WorkflowMemoryStore(database, workflow.id, "notes");
    await apply(local);
    await apply(stored);
    for (const { query, k, within } of QUERIES) {
      const options = within === undefined ? {} : { within };
      expect(await stored.recall(query, k, options), `${query} k=${k} within=${String(within)}`).toEqual(await local.recall(query, k, options));
    }
    const kiwi = await stored.recall("kiwi", 5);
    expect(kiwi.map((hit) => hit.uri)).toEqual(["memory://resources/tie/second", "memory://resources/tie/first"]);
    expect((await stored.recall("needle", 1))[0]?.snippet).toHaveLength(200);
    expect(await stored.recall("banana", 5, { within: "user" })).toEqual([
      { uri: "memory://user/fruit/a", score: expect.closeTo(Math.log(2) * (2.5 / (1 + 1.5 * (0.25 + 0.75 * 1.5))), 10) as number, snippet: "apple banana apple" },
    ]);
  });

  it("is one store per workflow and store name, seen by every handle and after a restart", async () => {
    const { database, openAnother } = await open();
    const first = await createWorkflow(database, { name: "first" });
    const second = await createWorkflow(database, { name: "second" });
    await new WorkflowMemoryStore(database, first.id, "notes").remember("memory://user/colour", "The favourite colour is teal.");
    expect(await new WorkflowMemoryStore(database, second.id, "notes").recall("colour", 3)).toEqual([]);
    expect(await new WorkflowMemoryStore(database, first.id, "other").recall("colour", 3)).toEqual([]);
    const otherWorker = await openAnother();
    const hits = await new WorkflowMemoryStore(otherWorker, first.id, "notes").recall("favourite colour", 3);
    expect(hits.map((hit) => [hit.uri, hit.snippet])).toEqual([["memory://user/colour", "The favourite colour is teal."]]);
    await database.close();
    const restarted = await openAnother();
    expect(await readMemoryDocuments(restarted, { workflowId: first.id, store: "notes" })).toEqual([{ uri: "memory://user/colour", text: "The favourite colour is teal." }]);
  });

  it("keeps concurrent commits of the same text from two workers to one document", async () => {
    const { database, openAnother } = await open();
    const workflow = await createWorkflow(database, { name: "concurrent" });
    const other = await openAnother();
    // The store exists already, so the writers meet on its row (not on creating it).
    await new WorkflowMemoryStore(database, workflow.id, "notes").remember("memory://user/first", "an earlier note");
    const sessions = Array.from({ length: 6 }, () => Session.create("user", "The same sentence from every worker."));
    const results = await Promise.all(sessions.map((session, index) => new WorkflowMemoryStore(index % 2 === 0 ? database : other, workflow.id, "notes").commit(session)));
    expect(results.reduce((sum, result) => sum + result.count, 0)).toBe(1);
    const documents = await readMemoryDocuments(database, { workflowId: workflow.id, store: "notes" });
    expect(documents.map((document) => document.text)).toEqual(["an earlier note", "The same sentence from every worker."]);
    const seqs = await database.client.memoryDocument.findMany({ where: { workflowId: workflow.id }, select: { seq: true }, orderBy: { seq: "asc" } });
    expect(seqs.map((row) => row.seq)).toEqual([1, 2]);
  });

  it("refuses bad URIs and unknown workflows with clear errors, writing nothing", async () => {
    const { database } = await open();
    const workflow = await createWorkflow(database, { name: "errors" });
    const store = new WorkflowMemoryStore(database, workflow.id, "notes");
    await expect(store.remember("memory://user/../secret", "x")).rejects.toSatisfy((error) => isRathError(error, "invalid_memory_uri"));
    await expect(store.recall("x", 3, { within: "nowhere" })).rejects.toSatisfy((error) => isRathError(error, "invalid_memory_uri"));
    await expect(writeMemoryDocuments(database, { workflowId: "wf_missing", store: "notes" }, [{ uri: "memory://user/a", text: "x" }])).rejects.toSatisfy((error) =>
      isRathError(error, "invalid_argument"),
    );
    expect(await database.client.memoryDocument.count()).toBe(0);
  });
});
