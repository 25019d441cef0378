import type { WorkflowEdge, WorkflowNode, WorkflowSpec } from "./workflow-spec";

/** An edge `source.sourcePort -> target.targetPort` with a readable id (test and example helper). */
export function edge(source: string, target: string, sourcePort = "out", targetPort = "in"): WorkflowEdge {
  return { id: `${source}.${sourcePort}->${target}.${targetPort}`, source, sourcePort, target, targetPort };
}

/** A minimal valid spec: input -> agent -> output, scripted provider as the default. */
export function minimalSpec(): WorkflowSpec {
  return {
    version: 1,
    name: "minimal",
    settings: { defaultProvider: "scripted", defaultModel: "scripted-1" },
    nodes: [
      { id: "input", type: "input", config: {} },
      { id: "agent", type: "agent", config: { name: "agent", instructions: "Answer." } },
      { id: "output", type: "output", config: {} },
    ],
    edges: [edge("input", "agent"), edge("agent", "output")],
  };
}

/** A valid spec that uses every node type (and every tool kind) at least once. */
export function everyNodeTypeSpec(): WorkflowSpec {
  const nodes: WorkflowNode[] = [
    { id: "input", type: "input", config: { defaultText: "hello" } },
    { id: "fork", type: "fork", config: { branches: 2 } },
    {
      id: "worker",
      type: "agent",
      config: { name: "worker", instructions: "Work.", provider: "scripted", model: "scripted-1", maxRounds: 4, builtins: ["read_workspace_file"], policy: { maxCalls: 5 } },
    },
    { id: "shell", type: "tool", config: { kind: "builtin", name: "run_shell_command" } },
    {
      id: "add",
      type: "tool",
      config: {
        kind: "code",
        name: "add",
        description: "Adds two numbers.",
        parametersSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
        code: "export default ({ a, b }) => a + b;",
      },
    },
    { id: "everything", type: "tool", config: { kind: "mcp", server: { name: "everything", transport: "stdio", command: "npx", args: ["server-everything"] }, tools: ["echo"] } },
    { id: "notes", type: "memory", config: { store: "local", scope: "agent", recall: true, commit: true } },
    { id: "sub", type: "subworkflow", config: { workflowId: "child-workflow" } },
    { id: "merge", type: "merge", config: {} },
    { id: "compress", type: "compressor", config: { instructions: "Summarise." } },
    { id: "review", type: "approval", config: { prompt: "Continue?", allowEdit: true } },
    { id: "router", type: "selector", config: { instructions: "Pick the next step." } },
    { id: "output", type: "output", config: {} },
  ];
  return {
    version: 1,
    name: "every node type",
    description: "one of each",
    settings: { defaultProvider: "scripted", defaultModel: "scripted-1", tokenBudget: 10_000, maxSteps: 100, stepTimeoutMs: 60_000, stepRetries: 1 },
    nodes,
    edges: [
      edge("input", "fork"),
      edge("fork", "worker"),
      edge("fork", "sub"),
      edge("shell", "worker", "out", "tools"),
      edge("add", "worker", "out", "tools"),
      edge("everything", "worker", "out", "tools"),
      edge("notes", "worker", "out", "memory"),
      edge("worker", "merge"),
      edge("sub", "merge"),
      edge("merge", "compress"),
      edge("compress", "review"),
      edge("review", "router"),
      edge("router", "compress"),
      edge("router", "output", "done"),
    ],
  };
}
