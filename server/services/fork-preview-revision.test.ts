/**
 * "Fork from here" with another revision picked: the preview shows the picked revision's next agent (its prompt and
 * model, not the original run's), and the edits made on that preview apply to the picked revision's node.
 */
import { expect, it } from "vitest";
import type { ModelRequest } from "../../runtime/providers/types";
import { createScriptedProvider } from "../../runtime/testing/scripted-provider";
import { callerFor } from "../api/testing/api-harness";
import { describeEachDatabase } from "../db/testing/test-databases";
import { runToCompletion } from "../engine/run-to-completion";

function systemOf(request: ModelRequest): string {
  const system = request.messages.find((message) => message.role === "system");
  return system?.role === "system" ? system.content : "";
}

/** input -> writer -> editor -> output; the editor's prompt and model as given. */
function chainSpec(editor: { instructions: string; model?: string }) {
  const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, sourcePort: "out", target, targetPort: "in" });
  return {
    version: 1,
    name: "fork revision chain",
    settings: { defaultProvider: "scripted", defaultModel: "scripted" },
    nodes: [
      { id: "input", type: "input", config: { defaultText: "hello" } },
      { id: "writer", type: "agent", config: { name: "writer", instructions: "Writer: draft it" } },
      { id: "editor", type: "agent", config: { name: "editor", ...editor } },
      { id: "output", type: "output", config: {} },
    ],
    edges: [edge("input", "writer"), edge("writer", "editor"), edge("editor", "output")],
  };
}

const answer = () => createScriptedProvider({ steps: (request) => ({ content: `${systemOf(request)} | ok` }) });

describeEachDatabase("runs.forkPreview with another revision", (open) => {
  it("previews the picked revision's next agent, and the prompt edited on it runs with that revision's model", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { run } = await api.runs.start({ spec: chainSpec({ instructions: "Editor v1: polish it" }), input: "the launch" });
    expect((await runToCompletion(database, run.id, { providers: { scripted: answer() }, placement: { backend: "local" } })).status).toBe("succeeded");
    const v2 = await api.workflows.saveRevision({ workflowId: run.workflowId, spec: chainSpec({ instructions: "Editor v2: be brief", model: "scripted-large" }) });
    const graph = await api.sessions.graph({ runId: run.id });
    const writer = graph.sessions.find((session) => session.nodeId === "writer" && session.lineage.lineage_kind === "op_session_loop");
    if (writer === undefined) throw new Error("no writer output");
    const at = { sessionId: writer.id, chunkIndex: writer.chunkCount - 1 };

    const original = await api.runs.forkPreview(at);
    expect(original.revisionId).toBe(run.revisionId);
    expect(original.nextAgent).toMatchObject({ nodeId: "editor", instructions: "Editor v1: polish it", model: "scripted" });
    const picked = await api.runs.forkPreview({ ...at, revisionId: v2.id });
    expect(picked.revisionId).toBe(v2.id);
    expect(picked.nextAgent).toMatchObject({ nodeId: "editor", instructions: "Editor v2: be brief", model: "scripted-large" });
    // The list still marks the original run's revision as the current one.
    expect(picked.revisions.find((revision) => revision.current)?.id).toBe(run.revisionId);

    const forked = await api.runs.forkFrom({ ...at, edits: { revisionId: v2.id, agent: { instructions: "Editor v2: one line" } } });
    const provider = answer();
    expect((await runToCompletion(database, forked.run.id, { providers: { scripted: provider }, placement: { backend: "local" } })).status).toBe("succeeded");
    expect(provider.requests.map((request) => [systemOf(request), request.model])).toEqual([["Editor v2: one line", "scripted-large"]]);
    const side = (await api.workflows.listRevisions({ workflowId: run.workflowId })).find((revision) => revision.id === forked.run.revisionId);
    expect(side?.parentRevisionId).toBe(v2.id);
  });

  it("refuses a revision of another workflow", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { run } = await api.runs.start({ spec: chainSpec({ instructions: "Editor: polish it" }), input: "x" });
    expect((await runToCompletion(database, run.id, { providers: { scripted: answer() }, placement: { backend: "local" } })).status).toBe("succeeded");
    const other = await api.runs.start({ spec: { ...chainSpec({ instructions: "Other" }), name: "another workflow" }, input: "y" });
    const writer = (await api.sessions.graph({ runId: run.id })).sessions.find((session) => session.nodeId === "writer" && session.lineage.lineage_kind === "op_session_loop");
    await expect(api.runs.forkPreview({ sessionId: writer?.id ?? "", chunkIndex: 0, revisionId: other.run.revisionId })).rejects.toThrow(/not found/);
  });
});
