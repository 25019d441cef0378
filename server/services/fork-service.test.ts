import { expect, it } from "vitest";
import type { ModelRequest } from "../../runtime/providers/types";
import { createScriptedProvider, type ScriptedProvider } from "../../runtime/testing/scripted-provider";
import type { Database } from "../db/database";
import { describeEachDatabase } from "../db/testing/test-databases";
import { runToCompletion } from "../engine/run-to-completion";
import { callerFor, expectApiError, rowCounts } from "../api/testing/api-harness";

type Message = ModelRequest["messages"][number];

function systemOf(request: ModelRequest): string {
  const system = request.messages.find((message) => message.role === "system");
  return system?.role === "system" ? system.content : "";
}

function lastOf(request: ModelRequest): Message | undefined {
  return request.messages[request.messages.length - 1];
}

/**
 * The scripted model: the reader asks for notes.txt first (there is no such file: the call fails), then reports what
 * the tool said; every other agent answers "<its system prompt> | <the last message>".
 */
function scriptedModel(): ScriptedProvider {
  return createScriptedProvider({
    steps: (request) => {
      const system = systemOf(request);
      const last = lastOf(request);
      if (system.startsWith("Reader") && last?.role !== "tool") return { toolCalls: [{ name: "read_workspace_file", arguments: { path: "notes.txt" } }] };
      if (last?.role === "tool") return { content: `Reader saw: ${last.content}` };
      return { content: `${system} | ${last && "content" in last ? last.content : ""}` };
    },
  });
}

function agent(id: string, instructions: string, builtins?: string[]) {
  return { id, type: "agent", config: { name: id, instructions, ...(builtins ? { builtins } : {}) } };
}

function edge(source: string, target: string) {
  return { id: `${source}-${target}`, source, sourcePort: "out", target, targetPort: "in" };
}

/** input -> writer -> editor -> output. */
const chainSpec = {
  version: 1,
  name: "fork chain",
  settings: { defaultProvider: "scripted", defaultModel: "scripted" },
  nodes: [{ id: "input", type: "input", config: { defaultText: "hello" } }, agent("writer", "Writer: draft it"), agent("editor", "Editor: polish it"), { id: "output", type: "output", config: {} }],
  edges: [edge("input", "writer"), edge("writer", "editor"), edge("editor", "output")],
};

/** input -> reader (read_workspace_file) -> output. */
const readerSpec = {
  version: 1,
  name: "fork reader",
  settings: { defaultProvider: "scripted", defaultModel: "scripted" },
  nodes: [{ id: "input", type: "input", config: { defaultText: "Read the notes." } }, agent("reader", "Reader: read notes.txt", ["read_workspace_file"]), { id: "output", type: "output", config: {} }],
  edges: [edge("input", "reader"), edge("reader", "output")],
};

async function finishedRun(database: Database, spec: unknown, input: string) {
  const api = callerFor(database);
  const { run } = await api.runs.start({ spec, input });
  const provider = scriptedModel();
  const done = await runToCompletion(database, run.id, { providers: { scripted: provider }, placement: { backend: "local" } });
  expect(done.status).toBe("succeeded");
  const graph = await api.sessions.graph({ runId: run.id });
  return { api, runId: run.id, provider, graph };
}

describeEachDatabase("runs.forkFrom", (open) => {
  it("replays the prefix without calling the model, then diverges with the edited prompt of the next agent", async () => {
    const { database } = await open();
    const { api, runId, graph } = await finishedRun(database, chainSpec, "the launch");
    const writerOut = graph.sessions.find((session) => session.nodeId === "writer" && session.lineage.lineage_kind === "op_session_loop");
    if (writerOut === undefined) throw new Error("no writer output");
    const originalText = (await api.runs.get({ runId })).run.output as { text: string };
    expect(originalText.text).toContain("Editor: polish it");

    const forked = await api.runs.forkFrom({ sessionId: writerOut.id, chunkIndex: writerOut.chunkCount - 1, edits: { agent: { instructions: "Editor: answer in one word" } } });
    expect(forked.fork).toMatchObject({ fromRunId: runId, continuesAt: ["editor"], nextAgentNodeId: "editor" });
    expect(forked.run.status).toBe("queued");
    // The edited prompt is a revision of the same workflow that did not become its head.
    const workflow = await api.workflows.get({ workflowId: forked.run.workflowId });
    expect(workflow.head?.id).not.toBe(forked.run.revisionId);

    const provider = scriptedModel();
    const done = await runToCompletion(database, forked.run.id, { providers: { scripted: provider }, placement: { backend: "local" } });
    expect(done.status).toBe("succeeded");
    // One model call: the editor's. The writer's answer was replayed from the store and is what the editor saw.
    expect(provider.requests).toHaveLength(1);
    const request = provider.requests[0] as ModelRequest;
    expect(systemOf(request)).toBe("Editor: answer in one word");
    expect(lastOf(request)).toMatchObject({ role: "assistant", content: "Writer: draft it | the launch" });
    const output = done.output as { text: string };
    expect(output.text).toBe("Editor: answer in one word | Writer: draft it | the launch");
    expect(output.text).not.toBe(originalText.text);

    // Cross-run lineage, seen from both runs.
    const lineage = await api.runs.lineage({ runId: forked.run.id });
    expect(lineage.forkedFrom).toEqual({ runId, sessionId: writerOut.id, chunkIndex: writerOut.chunkCount - 1 });
    const original = await api.runs.lineage({ runId });
    expect(original.forks).toEqual([expect.objectContaining({ runId: forked.run.id, status: "succeeded", sessionId: writerOut.id, chunkIndex: writerOut.chunkCount - 1 })]);
    // The fork's root session shares the original's chunks (no rows of its own).
    const forkGraph = await api.sessions.graph({ runId: forked.run.id });
    const root = forkGraph.sessions.find((session) => session.lineage.parent_session_ids.includes(writerOut.id));
    expect(root).toMatchObject({ chunkCount: writerOut.chunkCount, lineage: { lineage_kind: "op_fork" } });
    expect(await database.client.chunk.count({ where: { sessionId: root?.id ?? "" } })).toBe(0);
  });

  it("forks inside an agent's turns with a changed run input: the agent continues from the edited prefix", async () => {
    const { database } = await open();
    const { api, graph } = await finishedRun(database, chainSpec, "the launch");
    const editorOut = graph.sessions.find((session) => session.nodeId === "editor" && session.lineage.lineage_kind === "op_session_loop");
    if (editorOut === undefined) throw new Error("no editor output");
    // Chunk 0 is the run input; the editor continues from it with the new input (its own and the writer's turns are dropped).
    const forked = await api.runs.forkFrom({ sessionId: editorOut.id, chunkIndex: 0, edits: { input: "the recall" } });
    expect(forked.fork.continuesAt).toEqual(["editor"]);
    expect(forked.run.input).toMatchObject({ text: "the recall" });
    const provider = scriptedModel();
    const done = await runToCompletion(database, forked.run.id, { providers: { scripted: provider }, placement: { backend: "local" } });
    expect(done.status).toBe("succeeded");
    expect(provider.requests.map(systemOf)).toEqual(["Editor: polish it"]);
    expect((done.output as { text: string }).text).toBe("Editor: polish it | the recall");
  });

  it("a fork from the failed tool call with a corrected tool result succeeds without running the tool again", async () => {
    const { database } = await open();
    const { api, runId, graph } = await finishedRun(database, readerSpec, "Read the notes.");
    const failing = graph.sessions.find((session) => session.toolErrors !== null);
    if (failing?.toolErrors == null) throw new Error("expected a session with a failed tool call");
    const index = failing.toolErrors.firstIndex;
    const before = (await api.runs.get({ runId })).run.output as { text: string };
    expect(before.text).toContain("Reader saw:");
    expect(before.text).toContain("not");

    const forked = await api.runs.forkFrom({ sessionId: failing.id, chunkIndex: index, edits: { toolResults: [{ chunkIndex: index, content: "Ship on Friday." }] } });
    expect(forked.fork.continuesAt).toEqual(["reader"]);
    const provider = scriptedModel();
    const done = await runToCompletion(database, forked.run.id, { providers: { scripted: provider }, placement: { backend: "local" } });
    expect(done.status).toBe("succeeded");
    expect((done.output as { text: string }).text).toBe("Reader saw: Ship on Friday.");
    // The model answered once (after the corrected result); the tool did not run: no effect, no new tool_result.
    expect(provider.requests).toHaveLength(1);
    expect(await database.client.effect.count({ where: { runId: forked.run.id } })).toBe(0);
    const forkGraph = await api.sessions.graph({ runId: forked.run.id });
    expect(forkGraph.sessions.every((session) => session.toolErrors === null)).toBe(true);
    const root = forkGraph.sessions.find((session) => session.lineage.parent_session_ids.includes(failing.id));
    // The edited chunk is the fork's own row; the chunks before it are shared with the original.
    expect(await database.client.chunk.findMany({ where: { sessionId: root?.id ?? "" }, select: { index: true } })).toEqual([{ index }]);
  });

  it("refuses an unknown session, a chunk out of range and edits that do not fit; nothing is created", async () => {
    const { database } = await open();
    const { api, graph } = await finishedRun(database, chainSpec, "x");
    const writerOut = graph.sessions.find((session) => session.nodeId === "writer" && session.lineage.lineage_kind === "op_session_loop");
    const outputSession = graph.sessions.find((session) => session.nodeId === "editor" && session.lineage.lineage_kind === "op_session_loop");
    if (writerOut === undefined || outputSession === undefined) throw new Error("sessions missing");
    const counts = await rowCounts(database);

    const unknown = await expectApiError(api.runs.forkFrom({ sessionId: "ses_nope", chunkIndex: 0 }), "NOT_FOUND");
    expect(unknown.message).toContain("session ses_nope not found");
    const range = await expectApiError(api.runs.forkFrom({ sessionId: writerOut.id, chunkIndex: 99 }), "BAD_REQUEST");
    expect(range.message).toContain(`chunkIndex 99 is out of range: session ${writerOut.id} has ${writerOut.chunkCount} chunk(s)`);
    const notTool = await expectApiError(api.runs.forkFrom({ sessionId: writerOut.id, chunkIndex: 1, edits: { toolResults: [{ chunkIndex: 0, content: "x" }] } }), "BAD_REQUEST");
    expect(notTool.message).toContain("chunk 0 of session");
    expect(notTool.message).toContain("is a user chunk, not a tool_result");
    const emptyAgent = await expectApiError(api.runs.forkFrom({ sessionId: writerOut.id, chunkIndex: 1, edits: { agent: {} } }), "BAD_REQUEST");
    expect(JSON.stringify(emptyAgent)).toContain("name at least one of instructions, model, provider");
    const unknownKey = await expectApiError(api.runs.forkFrom({ sessionId: writerOut.id, chunkIndex: 1, edits: { prompt: "x" } } as never), "BAD_REQUEST");
    expect(JSON.stringify(unknownKey)).toContain("prompt");
    // The editor's final answer goes to the Output node: nothing after it reads an agent, so no agent edit fits.
    const noAgent = await expectApiError(
      api.runs.forkFrom({ sessionId: outputSession.id, chunkIndex: outputSession.chunkCount - 1, edits: { agent: { model: "other" } } }),
      "BAD_REQUEST",
    );
    expect(noAgent.message).toContain("no agent continues from chunk");
    const badRevision = await expectApiError(api.runs.forkFrom({ sessionId: writerOut.id, chunkIndex: 1, edits: { revisionId: "rev_nope" } }), "NOT_FOUND");
    expect(badRevision.message).toContain("revision rev_nope");
    expect(await rowCounts(database)).toEqual(counts);
  });
});
