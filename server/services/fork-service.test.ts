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

/** input -> fork -> (gate: approval | analyst) -> merge (analyst first) -> output: the output text is the gate's. */
const gatedSpec = {
  version: 1,
  name: "fork gated",
  settings: { defaultProvider: "scripted", defaultModel: "scripted" },
  nodes: [
    { id: "input", type: "input", config: { defaultText: "Draft it." } },
    { id: "split", type: "fork", config: { branches: 2 } },
    { id: "gate", type: "approval", config: { prompt: "Send it?", allowEdit: true } },
    agent("analyst", "Analyst: check it"),
    { id: "join", type: "merge", config: {} },
    { id: "output", type: "output", config: {} },
  ],
  edges: [edge("input", "split"), edge("split", "gate"), edge("split", "analyst"), edge("analyst", "join"), edge("gate", "join"), edge("join", "output")],
};

/** input -> split -> (pros | cons) -> join -> summary -> output. */
const mergeSpec = {
  version: 1,
  name: "fork merge",
  settings: { defaultProvider: "scripted", defaultModel: "scripted" },
  nodes: [
    { id: "input", type: "input", config: { defaultText: "Weigh it." } },
    { id: "split", type: "fork", config: { branches: 2 } },
    agent("pros", "Pros: argue for"),
    agent("cons", "Cons: argue against"),
    { id: "join", type: "merge", config: {} },
    agent("summary", "Summary: weigh both"),
    { id: "output", type: "output", config: {} },
  ],
  edges: [edge("input", "split"), edge("split", "pros"), edge("split", "cons"), edge("pros", "join"), edge("cons", "join"), edge("join", "summary"), edge("summary", "output")],
};

/** A gated run left waiting on its approval (and the analyst's output session). */
async function waitingGatedRun(database: Database) {
  const api = callerFor(database);
  const { run } = await api.runs.start({ spec: gatedSpec, input: "Draft it." });
  expect((await runToCompletion(database, run.id, { providers: { scripted: scriptedModel() }, placement: { backend: "local" } })).status).toBe("waiting");
  const [interrupt] = (await api.runs.get({ runId: run.id })).pendingInterrupts;
  if (interrupt === undefined) throw new Error("no interrupt");
  const graph = await api.sessions.graph({ runId: run.id });
  const analystOut = graph.sessions.find((session) => session.nodeId === "analyst" && session.lineage.lineage_kind === "op_session_loop");
  if (analystOut === undefined) throw new Error("no analyst output");
  return { api, runId: run.id, interrupt, analystOut };
}

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

  it("carries an approval the original decided into the fork: the same decision applies and nobody is asked again", async () => {
    const { database } = await open();
    const { api, runId, interrupt, analystOut } = await waitingGatedRun(database);
    await api.runs.decideInterrupt({ interruptId: interrupt.id, decision: "edit", payload: "Edited by a person." });
    const original = await runToCompletion(database, runId, { providers: { scripted: scriptedModel() }, placement: { backend: "local" } });
    expect((original.output as { text: string }).text).toBe("Edited by a person.");

    // The analyst's answer was made while the gate waited: the checkpoint after it still has the gate suspended.
    const at = analystOut.chunkCount - 1;
    const preview = await api.runs.forkPreview({ sessionId: analystOut.id, chunkIndex: at });
    expect(preview.approvals).toEqual({ carried: [{ nodeId: "gate", interruptId: interrupt.id, decision: "edit" }], askedAgain: [] });
    const forked = await api.runs.forkFrom({ sessionId: analystOut.id, chunkIndex: at });
    const provider = scriptedModel();
    const done = await runToCompletion(database, forked.run.id, { providers: { scripted: provider }, placement: { backend: "local" } });
    expect(done.status).toBe("succeeded");
    expect((done.output as { text: string }).text).toBe("Edited by a person.");
    expect(provider.requests).toHaveLength(0);
    expect(await database.client.interrupt.count({ where: { runId: forked.run.id } })).toBe(0);
    const forkedEvent = await database.client.runEvent.findFirst({ where: { runId: forked.run.id, type: "run.forked" } });
    expect(JSON.parse(forkedEvent?.payload ?? "{}")).toMatchObject({ carried_decisions: [{ node_id: "gate", interrupt_id: interrupt.id, decision: "edit" }], asked_again: [] });
  });

  it("asks again an approval the original has not decided, in the fork's own interrupt", async () => {
    const { database } = await open();
    const { api, interrupt, analystOut } = await waitingGatedRun(database);
    const preview = await api.runs.forkPreview({ sessionId: analystOut.id, chunkIndex: analystOut.chunkCount - 1 });
    expect(preview.approvals).toEqual({ carried: [], askedAgain: [{ nodeId: "gate", reason: "undecided" }] });
    const forked = await api.runs.forkFrom({ sessionId: analystOut.id, chunkIndex: analystOut.chunkCount - 1 });
    const done = await runToCompletion(database, forked.run.id, { providers: { scripted: scriptedModel() }, placement: { backend: "local" } });
    expect(done.status).toBe("waiting");
    const asked = (await api.runs.get({ runId: forked.run.id })).pendingInterrupts;
    expect(asked.map((item) => item.nodeId)).toEqual(["gate"]);
    expect(asked[0]?.id).not.toBe(interrupt.id);
    // The original's own question is untouched.
    expect((await api.runs.pendingInterrupts({ runId: interrupt.runId })).map((item) => item.id)).toEqual([interrupt.id]);
  });

  it("a chunk of a merge's output can be forked from the branch it came from: only that branch and what follows run again", async () => {
    const { database } = await open();
    const { api, graph } = await finishedRun(database, mergeSpec, "Weigh it.");
    const merged = graph.sessions.find((session) => session.nodeId === "join" && session.lineage.lineage_kind === "op_merge");
    if (merged === undefined) throw new Error("no merge output");
    const [prosOut, consOut] = merged.lineage.parent_session_ids.map((id) => graph.sessions.find((session) => session.id === id));
    if (prosOut === undefined || consOut === undefined) throw new Error("merge parents missing");
    expect([prosOut.nodeId, consOut.nodeId]).toEqual(["pros", "cons"]);
    // The first chunk of the cons branch inside the merged session.
    const at = prosOut.chunkCount;
    const preview = await api.runs.forkPreview({ sessionId: merged.id, chunkIndex: at });
    expect(preview.sides).toEqual([
      {
        role: "merged",
        sessionId: merged.id,
        chunkIndex: at,
        nodeId: "join",
        keptChunks: at + 1,
        continuesAt: ["summary"],
        parts: [
          { sessionId: prosOut.id, nodeId: "pros", kept: prosOut.chunkCount, total: prosOut.chunkCount },
          { sessionId: consOut.id, nodeId: "cons", kept: 1, total: consOut.chunkCount },
        ],
      },
      { role: "branch", sessionId: consOut.id, chunkIndex: 0, nodeId: "cons", keptChunks: 1, continuesAt: ["cons"], parts: [] },
    ]);
    // A session that is not a merge has no sides to choose from.
    expect((await api.runs.forkPreview({ sessionId: consOut.id, chunkIndex: 0 })).sides).toEqual([]);

    const forked = await api.runs.forkFrom({ sessionId: consOut.id, chunkIndex: 0, edits: { input: "Only the risks." } });
    const provider = scriptedModel();
    const done = await runToCompletion(database, forked.run.id, { providers: { scripted: provider }, placement: { backend: "local" } });
    expect(done.status).toBe("succeeded");
    // The cons branch ran again on the edited input, then the summary; the pros branch was not asked again.
    expect(provider.requests.map(systemOf)).toEqual(["Cons: argue against", "Summary: weigh both"]);
    expect((done.output as { text: string }).text).toBe("Summary: weigh both | Cons: argue against | Only the risks.");
  });
});

/** input -> split -> (pros | cons -> critic) -> join -> summary -> output: mergeSpec with a second agent on the cons branch. */
const chainedMergeSpec = {
  ...mergeSpec,
  name: "fork chained merge",
  nodes: [...mergeSpec.nodes, agent("critic", "Critic: test the cons")],
  edges: [...mergeSpec.edges.filter((wire) => wire.id !== "cons-join"), edge("cons", "critic"), edge("critic", "join")],
};

/** The pros agent's output and the first chunk the fork keeps of it (the run input, inside its turns). */
function prosOutput(graph: Awaited<ReturnType<typeof finishedRun>>["graph"]) {
  const pros = graph.sessions.find((session) => session.nodeId === "pros" && session.lineage.lineage_kind === "op_session_loop");
  if (pros === undefined) throw new Error("no pros output");
  return pros;
}

describeEachDatabase("runs.forkFrom inside one branch of a fan-out", (open) => {
  it("replays the sibling branch the original recorded (no model call for it); only the fork's branch and what follows run live", async () => {
    const { database } = await open();
    const { api, runId, graph, provider: originalProvider } = await finishedRun(database, chainedMergeSpec, "Weigh it.");
    expect(originalProvider.requests.map(systemOf)).toEqual(["Pros: argue for", "Cons: argue against", "Critic: test the cons", "Summary: weigh both"]);
    const pros = prosOutput(graph);
    const critic = graph.sessions.find((session) => session.nodeId === "critic" && session.lineage.lineage_kind === "op_session_loop");
    if (critic === undefined) throw new Error("no critic output");

    const preview = await api.runs.forkPreview({ sessionId: pros.id, chunkIndex: 0 });
    expect(preview.continuesAt).toEqual(["pros"]);
    expect(preview.replayed).toEqual(["cons", "critic"]);
    expect(preview.alsoRuns).toEqual([]);

    const forked = await api.runs.forkFrom({ sessionId: pros.id, chunkIndex: 0, edits: { input: "Only the upside." } });
    const provider = scriptedModel();
    const done = await runToCompletion(database, forked.run.id, { providers: { scripted: provider }, placement: { backend: "local" } });
    expect(done.status).toBe("succeeded");
    // Provider calls: the forked branch and the summary after the merge; none for cons or critic.
    expect(provider.requests.map(systemOf)).toEqual(["Pros: argue for", "Summary: weigh both"]);
    // The merge joined the live branch with the critic's recorded answer (made from the original input).
    const summaryTexts = (provider.requests[1] as ModelRequest).messages.map((message) => ("content" in message ? message.content : null));
    expect(summaryTexts).toContain("Pros: argue for | Only the upside.");
    expect(summaryTexts).toContain("Critic: test the cons | Cons: argue against | Weigh it.");

    // The replayed sessions are the new run's, sharing the original's chunks (no rows of their own).
    const forkGraph = await api.sessions.graph({ runId: forked.run.id });
    const replayedCritic = forkGraph.sessions.find((session) => session.nodeId === "critic");
    expect(replayedCritic).toMatchObject({ chunkCount: critic.chunkCount, lineage: { lineage_kind: "op_session_loop" } });
    expect(replayedCritic?.lineage.lineage_extras).toEqual(expect.arrayContaining([["replay.of_session", critic.id], ["replay.from_run", runId]]));
    expect(await database.client.chunk.count({ where: { sessionId: replayedCritic?.id ?? "" } })).toBe(0);
    const replayedCons = forkGraph.sessions.find((session) => session.nodeId === "cons");
    // The chain is kept: the critic's copy has the cons copy as its parent.
    expect(replayedCritic?.lineage.parent_session_ids[0]).toBe(replayedCons?.id);
    const merged = forkGraph.sessions.find((session) => session.nodeId === "join");
    expect(merged?.lineage.parent_session_ids).toContain(replayedCritic?.id);
    const forkedEvent = await database.client.runEvent.findFirst({ where: { runId: forked.run.id, type: "run.forked" } });
    const { replayed } = JSON.parse(forkedEvent?.payload ?? "{}") as { replayed: Array<{ node_id: string }> };
    expect(replayed.map((step) => step.node_id)).toEqual(["cons", "critic"]);
    // The original lists the fork once, and a replayed session is not a fork point of its own.
    expect((await api.runs.lineage({ runId })).forks.map((fork) => fork.runId)).toEqual([forked.run.id]);
    const refused = await expectApiError(api.runs.forkPreview({ sessionId: replayedCritic?.id ?? "", chunkIndex: 0 }), "BAD_REQUEST");
    expect(refused.message).toContain(`was replayed from session ${critic.id} of run ${runId}`);
  });

  it("runs a sibling live again when its node changed in the revision the fork picks, and everything after it", async () => {
    const { database } = await open();
    const { api, graph, runId } = await finishedRun(database, chainedMergeSpec, "Weigh it.");
    const run = (await api.runs.get({ runId })).run;
    const edited = structuredClone(chainedMergeSpec);
    const cons = edited.nodes.find((node) => node.id === "cons") as ReturnType<typeof agent>;
    cons.config.instructions = "Cons: argue harder";
    const revision = await api.workflows.saveRevision({ workflowId: run.workflowId, spec: edited });
    const forked = await api.runs.forkFrom({ sessionId: prosOutput(graph).id, chunkIndex: 0, edits: { revisionId: revision.id } });
    const provider = scriptedModel();
    expect((await runToCompletion(database, forked.run.id, { providers: { scripted: provider }, placement: { backend: "local" } })).status).toBe("succeeded");
    expect(provider.requests.map(systemOf)).toEqual(["Pros: argue for", "Cons: argue harder", "Critic: test the cons", "Summary: weigh both"]);
  });

  it("a changed model of the next agent is the one the provider is asked for; the replayed branch keeps its own", async () => {
    const { database } = await open();
    const { api, graph } = await finishedRun(database, chainedMergeSpec, "Weigh it.");
    const forked = await api.runs.forkFrom({ sessionId: prosOutput(graph).id, chunkIndex: 0, edits: { agent: { model: "scripted-large" } } });
    expect(forked.fork.nextAgentNodeId).toBe("pros");
    const provider = scriptedModel();
    expect((await runToCompletion(database, forked.run.id, { providers: { scripted: provider }, placement: { backend: "local" } })).status).toBe("succeeded");
    expect(provider.requests.map((request) => [systemOf(request), request.model])).toEqual([
      ["Pros: argue for", "scripted-large"],
      ["Summary: weigh both", "scripted"],
    ]);
  });

  it("runs live a sibling the original never finished (it failed there)", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { run } = await api.runs.start({ spec: chainedMergeSpec, input: "Weigh it." });
    const failing = createScriptedProvider({ steps: (request) => (systemOf(request).startsWith("Cons") ? { error: "model down" } : { content: `${systemOf(request)} | ok` }) });
    const original = await runToCompletion(database, run.id, { providers: { scripted: failing }, placement: { backend: "local" }, retryBaseMs: 1, retryMaxMs: 1 });
    expect(original.status).toBe("failed");
    const pros = prosOutput(await api.sessions.graph({ runId: run.id }));
    const preview = await api.runs.forkPreview({ sessionId: pros.id, chunkIndex: 0 });
    expect(preview.replayed).toEqual([]);
    expect(preview.alsoRuns).toEqual(["cons"]);
    const forked = await api.runs.forkFrom({ sessionId: pros.id, chunkIndex: 0 });
    const provider = scriptedModel();
    expect((await runToCompletion(database, forked.run.id, { providers: { scripted: provider }, placement: { backend: "local" } })).status).toBe("succeeded");
    expect(provider.requests.map(systemOf)).toEqual(["Pros: argue for", "Cons: argue against", "Critic: test the cons", "Summary: weigh both"]);
  });
});
