import { afterEach, describe, expect, it } from "vitest";
import { LocalMemoryStore } from "../../../runtime/memory/local-memory-store";
import { closeMcpPoolFor } from "../../../runtime/mcp/run-pool";
import { everythingStdioConfig } from "../../../runtime/mcp/test-servers";
import { sandboxBackends } from "../../../runtime/sandbox/backends";
import { bwrapRequired } from "../../../runtime/tools/test-support";
import type { Chunk } from "../../../runtime/session/chunk";
import type { Session } from "../../../runtime/session/session";
import { createScriptedProvider } from "../../../runtime/testing/scripted-provider";
import type { EffectCall } from "../../../runtime/tools/effects";
import { compileWorkflow } from "../spec/compile";
import { edge, minimalSpec } from "../../../runtime/workflow-spec/spec-fixtures";
import type { WorkflowNode } from "../../../runtime/workflow-spec/workflow-spec";
import type { NodeEnv } from "./node-env";
import { runPlanSequentially } from "./sequential-runner";
import { testEnv } from "./test-env";

const held: Session[] = [];
afterEach(async () => {
  for (const session of held.splice(0)) await session.release();
});

function withTool(tool: WorkflowNode) {
  const spec = minimalSpec();
  spec.nodes.push(tool);
  spec.edges.push(edge(tool.id, "agent", "out", "tools"));
  return spec;
}

function toolResults(session: Session): Chunk[] {
  return session.chunks.toArray().filter((chunk) => chunk.kind === "tool_result");
}

async function finalSession(spec: unknown, steps: Parameters<typeof createScriptedProvider>[0]["steps"], extra: Partial<NodeEnv> = {}) {
  const provider = createScriptedProvider({ steps });
  const env = testEnv({ scripted: provider }, { input: "go", ...extra });
  const result = await runPlanSequentially(compileWorkflow(spec), env);
  const session = result.outputs[0]?.session as Session;
  held.push(session);
  return { result, session, provider, env };
}

const addTool: WorkflowNode = {
  id: "add",
  type: "tool",
  config: {
    kind: "code",
    name: "add",
    description: "Adds a and b.",
    parametersSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    code: "export default ({ a, b }) => a + b;",
  },
};

describe("agent node", () => {
  it("gives the model a code tool and runs it in the session's sandbox", async () => {
    const { session, provider } = await finalSession(withTool(addTool), [{ toolCalls: [{ name: "add", arguments: { a: 20, b: 22 } }] }, { content: "42" }]);
    expect(provider.requests[0]?.tools).toEqual([{ name: "add", description: "Adds a and b.", parameters: addTool.type === "tool" && addTool.config.kind === "code" ? addTool.config.parametersSchema : {} }]);
    const [result] = toolResults(session);
    expect(result).toMatchObject({ kind: "tool_result", payload: { name: "add", content: "42" }, meta: { evidence: { ok: true, args: { a: 20, b: 22 } } } });
    expect(session.handle?.backend).toBe("local");
  });

  it("releases the sandbox of intermediate sessions, leaving the output's for the caller", async () => {
    const spec = withTool(addTool);
    spec.nodes.push({ id: "second", type: "agent", config: { name: "second", instructions: "" } });
    spec.edges = spec.edges.filter((item) => item.target !== "output").concat(edge("agent", "second"), edge("second", "output"));
    const provider = createScriptedProvider({ steps: [{ toolCalls: [{ name: "add", arguments: { a: 1, b: 2 } }] }, { content: "3" }, { content: "done" }] });
    const result = await runPlanSequentially(compileWorkflow(spec), testEnv({ scripted: provider }, { input: "go" }));
    const output = result.outputs[0]?.session as Session;
    const handle = output.handle;
    expect(handle?.closed).toBe(false);
    expect(handle?.refcount).toBe(1);
    await output.release();
    expect(handle?.closed).toBe(true);
  });

  it("refuses arguments that do not match the code tool's schema without running it", async () => {
    const { session } = await finalSession(withTool(addTool), [{ toolCalls: [{ name: "add", arguments: { a: "x" } }] }, { content: "sorry" }]);
    expect(toolResults(session)[0]).toMatchObject({ meta: { evidence: { ok: false, error_kind: "invalid_tool_arguments" } } });
  });

  it("runs a code tool inside bubblewrap when the session is placed there", async (context) => {
    const availability = await sandboxBackends.get("bwrap").available();
    if (!availability.ok && !bwrapRequired) context.skip(`bwrap unavailable: ${availability.reason ?? ""}`);
    const tool: WorkflowNode = {
      ...addTool,
      config: { kind: "code", name: "where", description: "", parametersSchema: { type: "object" }, code: "export default () => process.cwd();" },
    };
    const { session } = await finalSession(withTool(tool), [{ toolCalls: [{ name: "where", arguments: {} }] }, { content: "ok" }], { placement: { backend: "bwrap" } });
    expect(session.handle?.backend).toBe("bwrap");
    expect(toolResults(session)[0]).toMatchObject({ meta: { evidence: { ok: true } } });
    expect((toolResults(session)[0] as { payload: { content: string } }).payload.content).not.toBe(JSON.stringify(session.handle?.workingDir));
  });

  it("loads MCP tools as server__tool over one run connection", async () => {
    const spec = withTool({ id: "everything", type: "tool", config: { kind: "mcp", server: everythingStdioConfig(), tools: ["echo"] } });
    const provider = createScriptedProvider({ steps: [{ toolCalls: [{ name: "everything__echo", arguments: { message: "ping" } }] }, { content: "pong" }] });
    const env = testEnv({ scripted: provider }, { input: "echo" });
    try {
      const result = await runPlanSequentially(compileWorkflow(spec), env);
      expect(provider.requests[0]?.tools?.map((tool) => tool.name)).toEqual(["everything__echo"]);
      const [echoed] = toolResults(result.outputs[0]?.session as Session);
      expect(echoed).toMatchObject({ meta: { evidence: { ok: true } } });
      expect((echoed as { payload: { content: string } }).payload.content).toContain("ping");
    } finally {
      await closeMcpPoolFor(env.run);
    }
  });

  it("recalls from and commits to the attached memory store", async () => {
    const store = new LocalMemoryStore();
    await store.remember("memory://agent/colour", "the favourite colour is teal");
    const spec = minimalSpec();
    spec.nodes.push({ id: "notes", type: "memory", config: { store: "local", scope: "agent", recall: true, commit: true } });
    spec.edges.push(edge("notes", "agent", "out", "memory"));
    const provider = createScriptedProvider({ steps: [{ content: "teal" }] });
    const result = await runPlanSequentially(compileWorkflow(spec), testEnv({ scripted: provider }, { input: "what is the favourite colour?", getMemoryStore: () => store }));
    const kinds = (result.outputs[0]?.session as Session).chunks.toArray().map((chunk) => (chunk.kind === "memory" ? `memory:${chunk.payload.op}` : chunk.kind));
    expect(kinds).toEqual(["user", "memory:recall", "assistant", "memory:commit"]);
    expect(provider.requests[0]?.messages.some((message) => message.content?.includes("favourite colour is teal"))).toBe(true);
  });

  it("passes the effect hooks to tool dispatch, so a recorded result is replayed instead of run", async () => {
    const calls: EffectCall[] = [];
    const effects = {
      prepare: async (call: EffectCall) => {
        calls.push(call);
        return { replayContent: "99" };
      },
      dispatched: async () => {},
      settled: async () => {},
    };
    const { session } = await finalSession(withTool(addTool), [{ toolCalls: [{ name: "add", arguments: { a: 1, b: 1 } }] }, { content: "99" }], { effects });
    expect(calls).toEqual([{ callId: "call_0_0", tool: "add", args: { a: 1, b: 1 }, idempotent: false }]);
    expect(toolResults(session)[0]).toMatchObject({ payload: { content: "99" }, meta: { evidence: { replayed: true } } });
  });
});

describe("sub-workflow node", () => {
  const child = minimalSpec();
  child.name = "child";
  (child.nodes[1] as { config: { name: string } }).config.name = "child-agent";

  function parentSpec() {
    const spec = minimalSpec();
    spec.nodes[1] = { id: "agent", type: "subworkflow", config: { workflowId: "child" } };
    return spec;
  }

  it("runs the child workflow on the parent's session and continues with its output", async () => {
    const loaded: string[] = [];
    const { result, session } = await finalSession(parentSpec(), [{ content: "from the child" }], {
      loadSubworkflow: async (workflowId) => {
        loaded.push(workflowId);
        return child;
      },
    });
    expect(loaded).toEqual(["child"]);
    expect(result.outputs[0]?.text).toBe("from the child");
    expect(session.chunks.at(1)).toMatchObject({ kind: "assistant", meta: { producer: "child-agent" } });
    expect(session.lineage.parent_session_ids[0]).toBe(result.steps[0]?.result.outputs[0]?.id);
  });

  it("refuses a sub-workflow that runs itself", async () => {
    const provider = createScriptedProvider({ steps: [] });
    const env = testEnv({ scripted: provider }, { loadSubworkflow: async () => parentSpec() });
    await expect(runPlanSequentially(compileWorkflow(parentSpec()), env)).rejects.toThrow(/sub-workflow 'child' runs itself: child -> child/);
  });
});
