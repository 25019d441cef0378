import { expect, it } from "vitest";
import { readSessionChunks } from "../db/session-chunks";
import { describeEachDatabase } from "../db/testing/test-databases";
import { listPendingInterrupts } from "../db/interrupt-store";
import { submitDecision } from "./run-interrupts";
import { runToCompletion } from "./run-to-completion";
import { EXAMPLE_SPECS } from "./spec/examples";
import { allEvents, canonicalRunGraph } from "./testing/canonical-graph";
import { queueRun } from "./testing/engine-fixtures";
import type { Database } from "../db/database";
import type { Chunk } from "../../runtime/session/chunk";
import { createRun } from "../db/run-store";
import { latestCheckpoint } from "../db/run-commit";
import { resolveTemplateSpec, templateWorkflowId } from "../services/template-catalog";

async function expectConsistentGraph(database: Database, runId: string): Promise<void> {
  const sessions = await database.client.session.findMany({ where: { runId } });
  for (const session of sessions) {
    // Structural sharing: a session stores only the chunks after those it shares with its base.
    expect(await database.client.chunk.count({ where: { sessionId: session.id } })).toBe(session.chunkCount - session.baseChunkCount);
    expect((await readSessionChunks(database, session.id))?.length).toBe(session.chunkCount);
  }
  const ids = new Set(sessions.map((session) => session.id));
  // Every parent is a session of the run, so no edge needs a session_parents row (those are the edges across runs).
  for (const session of sessions) for (const parentId of JSON.parse(session.parents) as string[]) expect(ids.has(parentId)).toBe(true);
  expect(await database.client.sessionParent.count({ where: { sessionId: { in: [...ids] } } })).toBe(0);
  const checkpoints = await database.client.checkpoint.findMany({ where: { runId }, orderBy: { seq: "asc" }, select: { seq: true } });
  expect(checkpoints.map((checkpoint) => checkpoint.seq)).toEqual(checkpoints.map((_, index) => index + 1));
  const events = await allEvents(database, runId);
  expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
  expect((await canonicalRunGraph(database, runId)).some((session) => (session as { missing?: boolean }).missing)).toBe(false);
}

describeEachDatabase("example workflows on the durable engine (demo provider)", (open) => {
  for (const slug of ["hello-agent", "fork-merge-research", "selector-loop", "memory-notes"]) {
    it(`${slug} succeeds with a consistent session graph`, async () => {
      const { database } = await open();
      const run = await queueRun(database, EXAMPLE_SPECS[slug], { input: "What is a session?" });
      const done = await runToCompletion(database, run.id);
      expect(done.error).toBeNull();
      expect(done.status).toBe("succeeded");
      expect((done.output as { outputs: unknown[] }).outputs.length).toBeGreaterThan(0);
      await expectConsistentGraph(database, run.id);
    }, 60_000);
  }

  it("fork-merge-research shares chunk rows: forks store none, the merge only its right side, loops only new turns", async () => {
    const { database } = await open();
    const run = await queueRun(database, EXAMPLE_SPECS["fork-merge-research"], { input: "What is a session?" });
    expect((await runToCompletion(database, run.id)).status).toBe("succeeded");
    const sessions = await database.client.session.findMany({ where: { runId: run.id } });
    const byId = new Map(sessions.map((session) => [session.id, session]));
    const parentsOf = (session: (typeof sessions)[number]) => JSON.parse(session.parents) as string[];
    const forks = sessions.filter((session) => session.lineageKind === "op_fork");
    expect(forks.length).toBeGreaterThan(1);
    for (const fork of forks) {
      expect(fork.baseSessionId).toBe(parentsOf(fork)[0]);
      expect(fork.baseChunkCount).toBe(fork.chunkCount);
    }
    const merge = sessions.find((session) => session.lineageKind === "op_merge");
    if (merge === undefined) throw new Error("no merge session");
    const [left, right] = parentsOf(merge).map((id) => byId.get(id));
    expect(merge.baseSessionId).toBe(left?.id);
    expect(merge.baseChunkCount).toBe(left?.chunkCount);
    expect(merge.chunkCount - merge.baseChunkCount).toBe(right?.chunkCount);
    for (const loop of sessions.filter((session) => session.lineageKind === "op_session_loop")) {
      // Its input's chunks; a fork input owns none, so the base is followed down to the session that has the rows.
      const input = byId.get(parentsOf(loop)[0] as string);
      expect([input?.id, input?.baseSessionId]).toContain(loop.baseSessionId);
      expect(loop.baseChunkCount).toBe(input?.chunkCount);
    }
  }, 60_000);

  it("approval waits, then completes after approve", async () => {
    const { database } = await open();
    const run = await queueRun(database, EXAMPLE_SPECS.approval);
    expect((await runToCompletion(database, run.id)).status).toBe("waiting");
    const [interrupt] = await listPendingInterrupts(database, { runId: run.id });
    await submitDecision(database, interrupt?.id as string, { kind: "approve" });
    expect((await runToCompletion(database, run.id)).status).toBe("succeeded");
    await expectConsistentGraph(database, run.id);
  }, 60_000);

  it("selector-loop really loops: the router sends the draft back twice, then to the editor", async () => {
    const { database } = await open();
    const run = await queueRun(database, EXAMPLE_SPECS["selector-loop"], { input: "Write a haiku about branches." });
    const done = await runToCompletion(database, run.id);
    expect(done.status).toBe("succeeded");
    const routes = await routeChunks(database, run.id);
    expect(routes.map((route) => route.chosen)).toEqual([1, 1, 0]);
    expect(routes[0]?.reply).toMatch(/^1 — the work is not finished yet/);
    expect(outputText(done)).toMatch(/^Final: tight, clear and ready for review/);
    // The loop ran writer, reviewer and router three times; the checkpoint names each node once, so it does not
    // grow with the run's length, while its step count does.
    const last = await latestCheckpoint(database, run.id);
    const state = last?.state as { completed: string[]; steps: number } | undefined;
    expect(state?.completed).toEqual(["input", "writer", "reviewer", "router", "editor", "output"]);
    expect(state?.steps).toBe(12);
    await expectConsistentGraph(database, run.id);
  }, 60_000);

  it("support-triage: triage, then the specialist twice more while the case is open, then the wrap-up", async () => {
    const { database } = await open();
    const run = await queueRun(database, EXAMPLE_SPECS["support-triage"], { input: "I was charged twice for my March invoice and need a refund." });
    const done = await runToCompletion(database, run.id);
    expect(done.status).toBe("succeeded");
    const sessions = await database.client.session.findMany({ where: { runId: run.id } });
    const loops = sessions.filter((session) => session.lineageKind === "op_session_loop" && session.nodeId === "specialist");
    expect(loops.length).toBeGreaterThanOrEqual(3);
    const routes = await routeChunks(database, run.id);
    // Candidates in edge order: 0 specialist, 1 wrap-up.
    expect(routes.map((route) => route.chosen)).toEqual([0, 0, 0, 1]);
    expect(outputText(done)).toMatch(/^Wrap-up: .* billing case in 3 specialist steps: check the invoice history/);
    await expectConsistentGraph(database, run.id);
  }, 60_000);

  it("memory-notes recalls in a later run the fact an earlier run was told", async () => {
    const { database } = await open();
    const first = await queueRun(database, EXAMPLE_SPECS["memory-notes"], { input: "My parcel code is 4711." });
    expect((await runToCompletion(database, first.id)).status).toBe("succeeded");
    const second = (await createRun(database, { workflowId: first.workflowId, revisionId: first.revisionId, planHash: first.planHash, input: "What is my parcel code?" })).run;
    const done = await runToCompletion(database, second.id);
    expect(done.status).toBe("succeeded");
    const recall = (await runChunks(database, second.id)).find((chunk) => chunk.kind === "memory" && chunk.payload.op === "recall");
    expect(recall?.kind === "memory" ? recall.payload.hits?.map((hit) => hit.snippet) : []).toContain("My parcel code is 4711.");
    expect(outputText(done)).toContain("My parcel code is 4711.");
  }, 60_000);

  it("long-conversation-compressor replaces the conversation with a summary, then plans from it", async () => {
    const { database } = await open();
    const run = await queueRun(database, EXAMPLE_SPECS["long-conversation-compressor"], { input: (EXAMPLE_SPECS["long-conversation-compressor"] as { nodes: Array<{ config: { defaultText?: string } }> }).nodes[0]?.config.defaultText });
    const done = await runToCompletion(database, run.id);
    expect(done.status).toBe("succeeded");
    const compressed = await database.client.session.findMany({ where: { runId: run.id, lineageKind: "op_session_compress" } });
    expect(compressed).toHaveLength(1);
    expect(compressed[0]?.chunkCount).toBe(1);
    const text = outputText(done);
    expect(text).toMatch(/^Action items:/);
    expect(text).toContain("Chen will finish the API examples by April 28.");
    expect(text).not.toContain("weather");
    await expectConsistentGraph(database, run.id);
  }, 60_000);

  it("approved-file-write writes release-notes.md only after the approval", async () => {
    const { database } = await open();
    const run = await queueRun(database, EXAMPLE_SPECS["approved-file-write"], { input: "Draft release notes for 1.4: resumable runs, a shareable session graph, faster memory recall." });
    expect((await runToCompletion(database, run.id)).status).toBe("waiting");
    const writesBefore = (await runChunks(database, run.id)).filter((chunk) => chunk.kind === "tool_result");
    expect(writesBefore).toEqual([]);
    const [interrupt] = await listPendingInterrupts(database, { runId: run.id });
    await submitDecision(database, interrupt?.id as string, { kind: "approve" });
    const done = await runToCompletion(database, run.id);
    expect(done.status).toBe("succeeded");
    const chunks = await runChunks(database, run.id);
    const call = chunks.find((chunk) => chunk.kind === "assistant" && (chunk.payload.tool_calls?.length ?? 0) > 0);
    const args = JSON.parse(call?.kind === "assistant" ? (call.payload.tool_calls?.[0]?.function.arguments ?? "{}") : "{}") as { path?: string; content?: string };
    expect(args.path).toBe("release-notes.md");
    expect(args.content).toContain("Release 1.4\n- Resumable runs");
    const result = chunks.find((chunk) => chunk.kind === "tool_result");
    expect(result?.kind === "tool_result" ? result.meta.evidence?.ok : undefined).toBe(true);
    expect(outputText(done)).toContain("Saved the approved text");
  }, 60_000);

  it("mcp-files lists and reads the sample folder through the real MCP filesystem server", async () => {
    const { database } = await open();
    const spec = await resolveTemplateSpec("mcp-files", (child) => templateWorkflowId(database, child));
    const run = await queueRun(database, spec, { input: "List the files, then read the release notes and tell me what changed." });
    const done = await runToCompletion(database, run.id);
    expect(done.error).toBeNull();
    expect(done.status).toBe("succeeded");
    const calls = (await runChunks(database, run.id)).flatMap((chunk) => (chunk.kind === "assistant" ? (chunk.payload.tool_calls ?? []).map((item) => item.function.name) : []));
    expect(calls).toEqual(["filesystem__list_directory", "filesystem__read_text_file"]);
    expect(outputText(done)).toContain("Runs resume after a crash from their last checkpoint.");
  }, 60_000);

  it("subworkflow-brief runs the Summarizer workflow as a sub-workflow on the researcher's answer", async () => {
    const { database } = await open();
    const spec = await resolveTemplateSpec("subworkflow-brief", (child) => templateWorkflowId(database, child));
    const run = await queueRun(database, spec, { input: "Compare SQLite and PostgreSQL for a small team's agent runtime." });
    const done = await runToCompletion(database, run.id);
    expect(done.error).toBeNull();
    expect(done.status).toBe("succeeded");
    expect(outputText(done)).toMatch(/^Summary: Arguments for SQLite: it needs no setup/);
  }, 60_000);
});

function outputText(run: { output: unknown }): string {
  return (run.output as { text: string | null } | null)?.text ?? "";
}

/** Every chunk the run's sessions added, each once (a session's own chunks start at its base's count), in creation order. */
async function runChunks(database: Database, runId: string): Promise<Chunk[]> {
  const sessions = await database.client.session.findMany({ where: { runId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const chunks: Chunk[] = [];
  for (const session of sessions) {
    const own = (await readSessionChunks(database, session.id, { fromIndex: session.baseChunkCount })) ?? [];
    chunks.push(...own.map((record) => record.chunk));
  }
  return chunks;
}

async function routeChunks(database: Database, runId: string): Promise<Array<{ chosen: number; reply: string }>> {
  return (await runChunks(database, runId)).flatMap((chunk) => (chunk.kind === "route" ? [{ chosen: chunk.payload.chosen, reply: chunk.payload.reply }] : []));
}
