import { expect, it } from "vitest";
import type { Chunk } from "../../runtime/session/chunk";
import type { Database } from "../db/database";
import { readMemoryDocuments } from "../db/memory-documents";
import type { RunRecord } from "../db/run-record";
import { createRun, getRun } from "../db/run-store";
import { readSessionChunks } from "../db/session-chunks";
import { describeEachDatabase } from "../db/testing/test-databases";
import { createWorkflow, saveRevision } from "../db/workflow-store";
import { runToCompletion } from "./run-to-completion";
import { compileWorkflow } from "./spec/compile";
import { EXAMPLE_SPECS } from "./spec/examples";
import type { WorkflowSpec } from "../../runtime/workflow-spec/workflow-spec";
import { allEvents } from "./testing/canonical-graph";
import { queueRun } from "./testing/engine-fixtures";
import { spawnCrashWorker, waitFor } from "./testing/spawn-worker";

const EXAMPLE = EXAMPLE_SPECS["memory-notes"];

/** Queues another run of the same workflow revision. */
async function queueAgain(database: Database, run: RunRecord, input: string): Promise<RunRecord> {
  return (await createRun(database, { workflowId: run.workflowId, revisionId: run.revisionId, planHash: run.planHash, input })).run;
}

/** The chunks of the session the run's Output node returned. */
async function outputChunks(database: Database, runId: string): Promise<Chunk[]> {
  const run = await getRun(database, runId);
  const sessionId = (run?.output as { outputs: Array<{ sessionId: string }> } | null)?.outputs[0]?.sessionId;
  if (sessionId === undefined) throw new Error(`run ${runId} has no output session: ${JSON.stringify(run?.output)}`);
  return ((await readSessionChunks(database, sessionId)) ?? []).map((record) => record.chunk);
}

function kinds(chunks: readonly Chunk[]): string[] {
  return chunks.map((chunk) => (chunk.kind === "memory" ? `memory:${chunk.payload.op}` : chunk.kind));
}

async function memoryEvents(database: Database, runId: string): Promise<Array<{ type: string; payload: Record<string, unknown> }>> {
  return (await allEvents(database, runId)).filter((event) => event.type.startsWith("memory.")).map(({ type, payload }) => ({ type, payload }));
}

describeEachDatabase("memory in durable workflows", (open) => {
  it("a Memory node's store lives in the database: a later run, on another worker process, recalls what an earlier one committed", async () => {
    const { database, url, openAnother } = await open();
    const first = await queueRun(database, EXAMPLE, { input: "My favourite colour is teal." });
    expect((await runToCompletion(database, first.id)).status).toBe("succeeded");
    // An empty store: no recall chunk; the answer is remembered, then the new text committed.
    expect(kinds(await outputChunks(database, first.id))).toEqual(["user", "assistant", "memory:remember", "memory:commit"]);
    expect(await memoryEvents(database, first.id)).toEqual([
      { type: "memory.recalled", payload: { store: "notes", query: "My favourite colour is teal.", hits: 0 } },
      { type: "memory.remembered", payload: { store: "notes", uri: "memory://agent/assistant/last-answer" } },
      // The answer is stored already (remembered), so the commit adds the user's message only.
      { type: "memory.committed", payload: { store: "notes", count: 1 } },
    ]);

    const second = await queueAgain(database, first, "What is my favourite colour?");
    const worker = spawnCrashWorker(url);
    try {
      await waitFor(async () => (await getRun(database, second.id))?.status === "succeeded" || worker.child.exitCode !== null, 60_000, "the second run on the worker process");
    } finally {
      await worker.kill();
    }
    const events = await allEvents(database, second.id);
    expect(events.filter((event) => event.type === "run.claimed").map((event) => event.payload.worker_id)).toEqual(["crash-worker"]);
    const chunks = await outputChunks(database, second.id);
    expect(kinds(chunks)).toEqual(["user", "memory:recall", "assistant", "memory:remember", "memory:commit"]);
    const recall = chunks[1];
    if (recall?.kind !== "memory") throw new Error("no recall chunk");
    expect(recall.payload.query).toBe("What is my favourite colour?");
    expect(recall.payload.hits?.map((hit) => hit.snippet)).toEqual(["My favourite colour is teal."]);
    expect(recall.meta.producer).toBe("assistant");
    expect((await memoryEvents(database, second.id)).map((event) => event.type)).toEqual(["memory.recalled", "memory.remembered", "memory.committed"]);

    // A restart: a fresh handle reads the same store (the remembered answer is the second run's).
    await database.close();
    const restarted = await openAnother();
    const documents = await readMemoryDocuments(restarted, { workflowId: first.workflowId, store: "notes" });
    // Run 2's answer replaced run 1's at the remembered URI (and moved to the end of the store's order) before its
    // commit added the new user message.
    expect(documents.map((document) => [document.uri.startsWith("memory://session/") ? "session" : document.uri, document.text])).toEqual([
      ["session", "My favourite colour is teal."],
      ["memory://agent/assistant/last-answer", "agent answers: What is my favourite colour?"],
      ["session", "What is my favourite colour?"],
    ]);
    expect(await restarted.client.memoryDocument.count({ where: { workflowId: { not: first.workflowId } } })).toBe(0);
  }, 120_000);

  it("a sub-workflow's Memory node uses the sub-workflow's store, not its caller's", async () => {
    const { database } = await open();
    const child = await createWorkflow(database, { name: "child with memory" });
    const childSpec = EXAMPLE as WorkflowSpec;
    const childPlan = compileWorkflow(childSpec);
    await saveRevision(database, { workflowId: child.id, parentRevisionId: null, spec: childSpec, specSha256: childPlan.hash, planId: childPlan.id });
    const parentSpec: WorkflowSpec = {
      version: 1,
      name: "parent",
      settings: { defaultProvider: "scripted", defaultModel: "scripted-1" },
      nodes: [
        { id: "input", type: "input", config: {} },
        { id: "call", type: "subworkflow", config: { workflowId: child.id } },
        { id: "output", type: "output", config: {} },
      ],
      edges: [
        { id: "a", source: "input", sourcePort: "out", target: "call", targetPort: "in" },
        { id: "b", source: "call", sourcePort: "out", target: "output", targetPort: "in" },
      ],
    };
    const run = await queueRun(database, parentSpec, { input: "Remember the parcel code 4711." });
    const done = await runToCompletion(database, run.id);
    expect(done.error, JSON.stringify(done.error)).toBeNull();
    expect(done.status).toBe("succeeded");
    const childDocuments = await readMemoryDocuments(database, { workflowId: child.id, store: "notes" });
    expect(childDocuments.map((document) => document.text)).toEqual(['(scripted demo) You said: "Remember the parcel code 4711.". assistant looks at the next step: the smallest change that moves it forward.', "Remember the parcel code 4711."]);
    expect(await readMemoryDocuments(database, { workflowId: run.workflowId, store: "notes" })).toEqual([]);
    expect((await memoryEvents(database, run.id)).map((event) => event.type)).toEqual(["memory.recalled", "memory.remembered", "memory.committed"]);
  }, 60_000);
});
