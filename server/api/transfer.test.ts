import { expect, it } from "vitest";
import { parseBundle } from "../../runtime/files/bundle-reader";
import { parseLineageExport } from "../../runtime/files/lineage-export";
import { parseSessionText } from "../../runtime/files/session-loader";
import { runToCompletion } from "../engine/run-to-completion";
import { describeEachDatabase } from "../db/testing/test-databases";
import { callerFor, exampleSpec, expectApiError, rowCounts } from "./testing/api-harness";

/** How many lineage edges a graph holds (each session's parents). */
function parentCount(graph: { sessions: Array<{ lineage: { parent_session_ids: string[] } }> }): number {
  return graph.sessions.reduce((count, session) => count + session.lineage.parent_session_ids.length, 0);
}

describeEachDatabase("transfer router", (open) => {
  it("exports a run as a bundle and imports it into another database with the same graph, chunks and events", async () => {
    const source = await open();
    const target = await open();
    const from = callerFor(source.database);
    const into = callerFor(target.database);
    const { run } = await from.runs.start({ spec: exampleSpec("fork-merge-research"), input: "compare" });
    expect((await runToCompletion(source.database, run.id)).status).toBe("succeeded");

    const exported = await from.transfer.exportRun({ runId: run.id });
    if (exported.dialect !== "rath") throw new Error("expected a bundle");
    expect(exported.bundle.name).toBe(`run-${run.id}.jsonl`);
    const parsed = parseBundle(exported.bundle.content, exported.bundle.name);
    const workflowName = (await from.workflows.get({ workflowId: run.workflowId })).workflow.name;
    expect(parsed.bundle.run).toMatchObject({ run_id: run.id, workflow: run.workflowId, workflow_name: workflowName, status: "succeeded" });

    const imported = await into.transfer.importBundle({ content: exported.bundle.content, fileName: exported.bundle.name });
    expect(imported).toMatchObject({ status: "succeeded", renamedSessions: false, sessionCount: parsed.sessions.length });
    // The imported run is titled after the workflow that produced it, not its run id.
    expect((await into.workflows.get({ workflowId: imported.workflowId })).workflow.name).toBe(`Imported: ${workflowName}`);
    const original = await from.sessions.graph({ runId: run.id });
    const copy = await into.sessions.graph({ runId: imported.runId });
    const shape = (graph: typeof original) =>
      graph.sessions
        .map((session) => ({ id: session.id, nodeId: session.nodeId, lineage: session.lineage, ownUsage: session.ownUsage, inheritedChunkCount: session.inheritedChunkCount, chunkCount: session.chunkCount, status: session.status }))
        .sort((a, b) => a.id.localeCompare(b.id));
    expect(shape(copy)).toEqual(shape(original));
    expect(parentCount(copy)).toBe(parentCount(original));
    const sample = original.sessions[original.sessions.length - 1];
    if (sample === undefined) throw new Error("no sessions");
    const chunksOf = async (api: typeof from, sessionId: string) => (await api.sessions.chunks({ sessionId, limit: 1000 })).chunks.map((chunk) => chunk.chunk);
    expect(await chunksOf(into, sample.id)).toEqual(await chunksOf(from, sample.id));

    const originalEvents = (await from.runs.events({ runId: run.id, limit: 1000 })).events;
    const copiedEvents = (await into.runs.events({ runId: imported.runId, limit: 1000 })).events;
    expect(copiedEvents.map((event) => event.type)).toEqual([...originalEvents.map((event) => event.type), "run.imported"]);
    expect(copiedEvents.map((event) => event.seq)).toEqual(copiedEvents.map((_, index) => index + 1));

    const reimported = await from.transfer.importBundle({ content: exported.bundle.content });
    expect(reimported.renamedSessions).toBe(true);
    const renamed = await from.sessions.graph({ runId: reimported.runId });
    expect(renamed.sessions.map((session) => session.id).some((id) => original.sessions.some((session) => session.id === id))).toBe(false);
    expect(parentCount(renamed)).toBe(parentCount(original));
  });

  it("exports the reference dialect: one schema-1 file per session and a lineage export", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { run } = await api.runs.start({ spec: exampleSpec("hello-agent"), input: "hi" });
    await runToCompletion(database, run.id);
    const graph = await api.sessions.graph({ runId: run.id });
    const exported = await api.transfer.exportRun({ runId: run.id, dialect: "reference" });
    if (exported.dialect !== "reference") throw new Error("expected reference files");
    expect(exported.sessions.map((file) => file.name).sort()).toEqual(graph.sessions.map((session) => `${session.id}.jsonl`).sort());
    for (const file of exported.sessions) {
      const loaded = parseSessionText(file.content, file.name);
      expect(loaded.facts.schema_version).toBe(1);
      expect(loaded.facts.closed).toBe(true);
      expect(loaded.session.toSnapshot().chunks.every((chunk) => ["system", "user", "assistant", "tool_result"].includes(chunk.kind))).toBe(true);
      expect(file.content).not.toContain('"meta"');
    }
    const lineage = parseLineageExport(exported.lineage.content, exported.lineage.name);
    expect(lineage.map((record) => record.id).sort()).toEqual(graph.sessions.map((session) => session.id).sort());
  });

  it("refuses a malformed bundle with an error naming the line, and leaves the database unchanged", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { run } = await api.runs.start({ spec: exampleSpec("hello-agent"), input: "hi" });
    await runToCompletion(database, run.id);
    const exported = await api.transfer.exportRun({ runId: run.id });
    if (exported.dialect !== "rath") throw new Error("expected a bundle");
    const lines = exported.bundle.content.split("\n");
    const before = await rowCounts(database);

    const badJson = [...lines];
    badJson[2] = "{not json";
    const broken = await expectApiError(api.transfer.importBundle({ content: badJson.join("\n"), fileName: "shared.jsonl" }), "BAD_REQUEST");
    expect(broken.code).toBe("invalid_file");
    expect(broken.message).toContain("shared.jsonl:3");

    const truncated = lines.slice(0, 3).join("\n") + "\n";
    const short = await expectApiError(api.transfer.importBundle({ content: truncated, fileName: "short.jsonl" }), "BAD_REQUEST");
    expect(short.message).toMatch(/short\.jsonl:\d+: .*declares/);

    const wrongFirst = await expectApiError(api.transfer.importBundle({ content: `{"record_type":"session"}\n` }), "BAD_REQUEST");
    expect(wrongFirst.message).toContain("bundle.jsonl:1");
    await expectApiError(api.transfer.importBundle({ content: "" }), "BAD_REQUEST");
    expect(await rowCounts(database)).toEqual(before);
    await expectApiError(api.transfer.exportRun({ runId: "run_missing" }), "NOT_FOUND");
  });
});
