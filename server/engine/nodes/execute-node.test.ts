import { describe, expect, it } from "vitest";
import type { Chunk } from "../../../runtime/session/chunk";
import type { Session } from "../../../runtime/session/session";
import { createScriptedProvider } from "../../../runtime/testing/scripted-provider";
import { compileWorkflow } from "../spec/compile";
import { edge, minimalSpec } from "../../../runtime/workflow-spec/spec-fixtures";
import type { WorkflowSpec } from "../../../runtime/workflow-spec/workflow-spec";
import { executeNode } from "./execute-node";
import type { NodeResult } from "./node-env";
import { runPlanSequentially } from "./sequential-runner";
import { testEnv } from "./test-env";

function texts(session: Session): string[] {
  return session.chunks.toArray().map((chunk: Chunk) => {
    if (chunk.kind === "user" || chunk.kind === "system") return `${chunk.kind}:${chunk.payload.content}`;
    if (chunk.kind === "assistant") return `assistant:${chunk.payload.content ?? `[${chunk.payload.tool_calls?.map((call) => call.function.name).join(",")}]`}`;
    if (chunk.kind === "route") return `route:${chunk.payload.chosen}`;
    return chunk.kind;
  });
}

describe("executeNode, driven by a tiny sequential loop", () => {
  it("runs input -> agent (with a built-in tool) -> output", async () => {
    const spec = minimalSpec();
    spec.nodes.push({ id: "exists", type: "tool", config: { kind: "builtin", name: "workspace_path_exists" } });
    spec.edges.push(edge("exists", "agent", "out", "tools"));
    const plan = compileWorkflow(spec);
    const provider = createScriptedProvider({
      steps: [{ toolCalls: [{ name: "workspace_path_exists", arguments: { path: "." } }] }, { content: "the workspace exists" }],
    });
    const env = testEnv({ scripted: provider }, { input: "does the workspace exist?" });

    const queue: { nodeId: string; inputs: Session[] }[] = [{ nodeId: plan.entry, inputs: [] }];
    const visited: string[] = [];
    let final: NodeResult | undefined;
    while (queue.length > 0) {
      const step = queue.shift() as { nodeId: string; inputs: Session[] };
      visited.push(step.nodeId);
      const result = await executeNode(plan, step.nodeId, step.inputs, env);
      if (result.output) final = result;
      for (const next of result.next) queue.push({ nodeId: next.nodeId, inputs: [result.outputs[next.output] as Session] });
    }

    expect(visited).toEqual(["input", "agent", "output"]);
    expect(final?.output?.text).toBe("the workspace exists");
    const session = final?.outputs[0] as Session;
    expect(texts(session)).toEqual(["user:does the workspace exist?", "assistant:[workspace_path_exists]", "tool_result", "assistant:the workspace exists"]);
    const result = session.chunks.at(2);
    expect(result?.kind === "tool_result" && result.meta.evidence?.ok).toBe(true);
    expect(provider.requests[0]?.tools?.map((tool) => tool.name)).toEqual(["workspace_path_exists"]);
    expect(session.lineage.lineage_kind).toBe("op_session_loop");
    expect(env.events.some((event) => event.type === "tool.call.ended" && event.ok)).toBe(true);
    await session.release();
  });
});

describe("runPlanSequentially", () => {
  it("forks into two agents and merges their sessions in join order", async () => {
    const spec: WorkflowSpec = {
      version: 1,
      name: "fork merge",
      settings: { defaultProvider: "scripted", defaultModel: "scripted-1" },
      nodes: [
        { id: "input", type: "input", config: {} },
        { id: "fork", type: "fork", config: { branches: 2 } },
        { id: "left", type: "agent", config: { name: "left", instructions: "You are LEFT." } },
        { id: "right", type: "agent", config: { name: "right", instructions: "You are RIGHT." } },
        { id: "merge", type: "merge", config: {} },
        { id: "output", type: "output", config: {} },
      ],
      edges: [edge("input", "fork"), edge("fork", "left"), edge("fork", "right"), edge("right", "merge"), edge("left", "merge"), edge("merge", "output")],
    };
    const provider = createScriptedProvider({
      steps: (request) => ({ content: request.messages[0]?.content === "You are LEFT." ? "left says" : "right says" }),
    });
    const result = await runPlanSequentially(compileWorkflow(spec), testEnv({ scripted: provider }, { input: "topic" }));

    expect(result.status).toBe("succeeded");
    expect(result.steps.map((step) => step.nodeId)).toEqual(["input", "fork", "left", "right", "merge", "output"]);
    const fork = result.steps[1]?.result as NodeResult;
    expect(fork.outputs).toHaveLength(2);
    expect(fork.outputs.map((session) => session.lineage.lineage_kind)).toEqual(["op_fork", "op_fork"]);
    const merged = result.outputs[0]?.session as Session;
    // The join follows edge order in the spec: right's edge comes first.
    expect(texts(merged)).toEqual(["user:topic", "assistant:right says", "user:topic", "assistant:left says"]);
    const [rightOut, leftOut] = [result.steps[3]?.result.outputs[0], result.steps[2]?.result.outputs[0]];
    expect(merged.lineage.parent_session_ids).toEqual([rightOut?.id, leftOut?.id]);
    expect(merged.lineage.lineage_kind).toBe("op_merge");
  });

  it("loops through a selector until it answers -1, then takes the done edge", async () => {
    const spec = minimalSpec();
    spec.nodes.push({ id: "router", type: "selector", config: { instructions: "Again?" } });
    spec.edges.splice(1, 1, edge("agent", "router"), edge("router", "agent"), edge("router", "output", "done"));
    const provider = createScriptedProvider({ steps: [{ content: "draft 1" }, { content: "0" }, { content: "draft 2" }, { content: "-1" }] });
    const result = await runPlanSequentially(compileWorkflow(spec), testEnv({ scripted: provider }, { input: "write" }));

    expect(result.status).toBe("succeeded");
    expect(result.steps.map((step) => step.nodeId)).toEqual(["input", "agent", "router", "agent", "router", "output"]);
    expect(result.steps.filter((step) => step.nodeId === "router").map((step) => step.result.route)).toEqual([
      { chosen: 0, target: "agent" },
      { chosen: -1, target: "output" },
    ]);
    expect(result.outputs[0]?.text).toBe("draft 2");
    expect(texts(result.outputs[0]?.session as Session)).toEqual(["user:write", "assistant:draft 1", "route:0", "assistant:draft 2", "route:-1"]);
    expect(provider.requests[1]?.messages.at(-1)?.content).toMatch(/0: agent: Answer\./);
  });

  it("ends the branch on -1 when the selector has no done edge", async () => {
    const spec = minimalSpec();
    spec.nodes.push({ id: "router", type: "selector", config: { instructions: "" } });
    spec.edges.splice(1, 1, edge("agent", "router"), edge("router", "output"));
    const provider = createScriptedProvider({ steps: [{ content: "a" }, { content: "nothing fits" }] });
    const result = await runPlanSequentially(compileWorkflow(spec), testEnv({ scripted: provider }));
    expect(result.steps.at(-1)?.result).toMatchObject({ next: [], route: { chosen: -1, target: null } });
    expect(result.outputs).toEqual([]);
  });

  it("fails the run when a merge waits for a branch that ended", async () => {
    const spec = minimalSpec();
    spec.nodes.push(
      { id: "fork", type: "fork", config: {} },
      { id: "router", type: "selector", config: { instructions: "" } },
      { id: "merge", type: "merge", config: {} },
    );
    spec.edges = [edge("input", "fork"), edge("fork", "agent"), edge("fork", "router"), edge("router", "merge"), edge("agent", "merge"), edge("merge", "output")];
    const provider = createScriptedProvider({ steps: [{ content: "answer" }, { content: "-1" }] });
    const result = await runPlanSequentially(compileWorkflow(spec), testEnv({ scripted: provider }));
    expect(result.status).toBe("failed");
    expect(result.failures).toEqual([{ nodeId: "merge", message: "merge 'merge' never ran: edges router.out->merge.in delivered no session (their branches ended or failed)" }]);
  });

  it("runs a compressor and keeps the summarised session in its lineage", async () => {
    const spec = minimalSpec();
    spec.nodes[1] = { id: "agent", type: "compressor", config: { instructions: "Be short." } };
    const provider = createScriptedProvider({ steps: [{ content: "summary" }] });
    const result = await runPlanSequentially(compileWorkflow(spec), testEnv({ scripted: provider }, { input: "long story" }));
    const session = result.outputs[0]?.session as Session;
    expect(texts(session)).toEqual(["user:summary"]);
    expect(session.lineage.lineage_kind).toBe("op_session_compress");
    expect(session.lineage.parent_session_ids[0]).toBe(result.steps[0]?.result.outputs[0]?.id);
  });
});
