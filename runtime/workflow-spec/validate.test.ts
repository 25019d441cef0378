import { describe, expect, it } from "vitest";
import { everyNodeTypeSpec, edge, minimalSpec } from "./spec-fixtures";
import type { Problem, ProblemCode } from "./problems";
import { validateWorkflowSpec } from "./validate";
import type { WorkflowSpec } from "./workflow-spec";

function problemsOf(spec: unknown): Problem[] {
  const result = validateWorkflowSpec(spec);
  return result.ok ? [] : result.problems;
}

function withSpec(change: (spec: WorkflowSpec) => void): WorkflowSpec {
  const spec = minimalSpec();
  change(spec);
  return spec;
}

interface Case {
  name: string;
  spec: unknown;
  code: ProblemCode;
  nodeId?: string;
  edgeId?: string;
  path?: (string | number)[];
  message?: RegExp;
}

const cases: Case[] = [
  {
    name: "a field of the wrong type",
    spec: withSpec((spec) => Object.assign(spec.nodes[1] as object, { config: { name: 7, instructions: "x" } })),
    code: "invalid_field",
    nodeId: "agent",
    path: ["nodes", 1, "config", "name"],
    message: /^nodes\[1\]\.config\.name: expected string, found number 7$/,
  },
  {
    name: "a number out of range, saying what was found",
    spec: withSpec((spec) => Object.assign(spec, { settings: { ...spec.settings, maxSteps: -1 } })),
    code: "invalid_field",
    path: ["settings", "maxSteps"],
    message: /^settings\.maxSteps: Too small: expected number to be >0; found number -1$/,
  },
  {
    name: "a Memory node remembering at a traversal URI",
    spec: withSpec((spec) => spec.nodes.push({ id: "notes", type: "memory", config: { store: "notes", scope: "agent", recall: true, commit: false, remember: "memory://agent/../secrets" } })),
    code: "invalid_field",
    nodeId: "notes",
    path: ["nodes", 3, "config", "remember"],
    message: /forbidden path segment '\.\.'/,
  },
  {
    name: "a wrong version",
    spec: { ...minimalSpec(), version: 2 },
    code: "invalid_field",
    path: ["version"],
  },
  {
    name: "an unknown node type",
    spec: withSpec((spec) => spec.nodes.push({ id: "mystery", type: "wizard", config: {} } as never)),
    code: "unknown_node_type",
    nodeId: "mystery",
    message: /expected one of input, agent.*found the string "wizard"/,
  },
  {
    name: "a duplicate node id",
    spec: withSpec((spec) => spec.nodes.push({ id: "agent", type: "output", config: {} })),
    code: "duplicate_node_id",
    nodeId: "agent",
    path: ["nodes", 3, "id"],
  },
  {
    name: "a duplicate edge id",
    spec: withSpec((spec) => spec.edges.push({ ...(spec.edges[0] as WorkflowSpec["edges"][number]) })),
    code: "duplicate_edge_id",
    edgeId: "input.out->agent.in",
  },
  {
    name: "an edge to a node that does not exist",
    spec: withSpec((spec) => spec.edges.push(edge("agent", "ghost"))),
    code: "dangling_edge",
    edgeId: "agent.out->ghost.in",
    message: /'ghost', which does not exist; nodes: input, agent, output/,
  },
  {
    name: "an edge from a port that does not exist",
    spec: withSpec((spec) => spec.edges.push(edge("agent", "output", "result"))),
    code: "unknown_port",
    edgeId: "agent.out->output.in".replace("out", "result"),
    nodeId: "agent",
    message: /no output port 'result'; expected one of: out/,
  },
  {
    name: "a tool wired to something that is not an agent",
    spec: withSpec((spec) => {
      spec.nodes.push({ id: "shell", type: "tool", config: { kind: "builtin", name: "run_shell_command" } });
      spec.edges.push(edge("shell", "output"));
    }),
    code: "port_type_mismatch",
    edgeId: "shell.out->output.in",
    nodeId: "output",
    message: /joins tool '.*'\.out to output 'output'\.in: 'out' carries a tool but 'in' expects a session; connect it to an Agent's 'tools' port/,
  },
  {
    name: "two edges from a single output port",
    spec: withSpec((spec) => {
      spec.nodes.push({ id: "output2", type: "output", config: {} });
      spec.edges.push(edge("agent", "output2"));
    }),
    code: "too_many_edges",
    nodeId: "agent",
    edgeId: "agent.out->output2.in",
    message: /use a Fork node/,
  },
  {
    name: "no Input node",
    spec: withSpec((spec) => {
      spec.nodes.splice(0, 1);
      spec.edges.splice(0, 1);
    }),
    code: "missing_input",
    message: /expected one Input node, found none/,
  },
  {
    name: "two Input nodes",
    spec: withSpec((spec) => {
      spec.nodes.push({ id: "input2", type: "input", config: {} });
      spec.edges.push(edge("input2", "agent"));
    }),
    code: "multiple_inputs",
    nodeId: "input2",
  },
  {
    name: "no Output node",
    spec: withSpec((spec) => {
      spec.nodes.splice(2, 1);
      spec.edges.splice(1, 1);
    }),
    code: "missing_output",
  },
  {
    name: "an unreachable node",
    spec: withSpec((spec) => {
      spec.nodes.push({ id: "island", type: "agent", config: { name: "island", instructions: "" } });
      spec.edges.push(edge("island", "output"));
    }),
    code: "unreachable_node",
    nodeId: "island",
  },
  {
    name: "a tool attached to no agent",
    spec: withSpec((spec) => spec.nodes.push({ id: "loose", type: "tool", config: { kind: "builtin", name: "run_code" } })),
    code: "unreachable_node",
    nodeId: "loose",
    message: /not attached to any reachable agent/,
  },
  {
    name: "a node whose session goes nowhere",
    spec: withSpec((spec) => {
      spec.nodes.push({ id: "fork", type: "fork", config: {} }, { id: "stub", type: "compressor", config: {} });
      spec.edges.splice(0, 1, edge("input", "fork"), edge("fork", "agent"), edge("fork", "stub"));
    }),
    code: "dead_end",
    nodeId: "stub",
  },
  {
    name: "a cycle without a selector",
    spec: withSpec((spec) => {
      spec.nodes.push({ id: "critic", type: "agent", config: { name: "critic", instructions: "" } }, { id: "fork", type: "fork", config: {} });
      spec.edges.splice(1, 1, edge("agent", "fork"), edge("fork", "critic"), edge("fork", "output"), edge("critic", "agent"));
    }),
    code: "cycle_without_selector",
    nodeId: "agent",
    message: /between agent, critic, fork form a cycle without a Selector/,
  },
  {
    name: "a merge fed from inside and outside a loop",
    spec: withSpec((spec) => {
      spec.nodes.push({ id: "merge", type: "merge", config: {} }, { id: "router", type: "selector", config: { instructions: "" } });
      spec.edges.splice(0, 2, edge("input", "merge"), edge("merge", "agent"), edge("agent", "router"), edge("router", "merge"), edge("router", "output", "done"));
    }),
    code: "merge_in_loop",
    nodeId: "merge",
    message: /inside its loop \(router.out->merge.in\) and from outside it \(input.out->merge.in\)/,
  },
  {
    name: "an agent with no provider and no default",
    spec: withSpec((spec) => {
      spec.settings = { defaultModel: "m" };
    }),
    code: "missing_provider",
    nodeId: "agent",
    path: ["nodes", 1, "config", "provider"],
  },
  {
    name: "a selector with an empty model and no default",
    spec: withSpec((spec) => {
      spec.settings = { defaultProvider: "scripted" };
      spec.nodes[1] = { id: "agent", type: "agent", config: { name: "a", instructions: "", model: "m" } };
      spec.nodes.push({ id: "router", type: "selector", config: { instructions: "", model: " " } });
      spec.edges.splice(1, 1, edge("agent", "router"), edge("router", "output", "done"));
    }),
    code: "missing_model",
    nodeId: "router",
  },
  {
    name: "an unknown built-in tool",
    spec: withSpec((spec) => {
      spec.nodes.push({ id: "search", type: "tool", config: { kind: "builtin", name: "serch" } });
      spec.edges.push(edge("search", "agent", "out", "tools"));
    }),
    code: "unknown_builtin_tool",
    nodeId: "search",
    message: /unknown built-in tool 'serch'; available: run_shell_command/,
  },
  {
    name: "two tools with one name on an agent",
    spec: withSpec((spec) => {
      spec.nodes[1] = { id: "agent", type: "agent", config: { name: "a", instructions: "", builtins: ["run_code"] } };
      spec.nodes.push({ id: "code", type: "tool", config: { kind: "builtin", name: "run_code" } });
      spec.edges.push(edge("code", "agent", "out", "tools"));
    }),
    code: "duplicate_tool_name",
    nodeId: "agent",
    message: /two tools named 'run_code': from the agent's built-ins and from built-in tool node 'code'/,
  },
  {
    name: "a code tool named like a built-in",
    spec: withSpec((spec) => {
      spec.nodes.push({ id: "mine", type: "tool", config: { kind: "code", name: "run_shell_command", description: "", parametersSchema: { type: "object" }, code: "export default () => 1" } });
      spec.edges.push(edge("mine", "agent", "out", "tools"));
    }),
    code: "duplicate_tool_name",
    nodeId: "agent",
    edgeId: "mine.out->agent.tools",
  },
  {
    name: "a code tool whose schema is not an object schema",
    spec: withSpec((spec) => {
      spec.nodes.push({ id: "mine", type: "tool", config: { kind: "code", name: "mine", description: "", parametersSchema: { type: "string" }, code: "export default () => 1" } });
      spec.edges.push(edge("mine", "agent", "out", "tools"));
    }),
    code: "invalid_tool_schema",
    nodeId: "mine",
  },
  {
    name: "a fork whose branch count disagrees with its edges",
    spec: withSpec((spec) => {
      spec.nodes.push({ id: "fork", type: "fork", config: { branches: 3 } });
      spec.edges.splice(0, 1, edge("input", "fork"), edge("fork", "agent"));
    }),
    code: "fork_branch_mismatch",
    nodeId: "fork",
  },
];

describe("validateWorkflowSpec", () => {
  it.each(cases)("reports $code for $name", (entry) => {
    const problems = problemsOf(entry.spec);
    const match = problems.find(
      (problem) =>
        problem.code === entry.code &&
        (entry.nodeId === undefined || problem.nodeId === entry.nodeId) &&
        (entry.edgeId === undefined || problem.edgeId === entry.edgeId),
    );
    expect(match, JSON.stringify(problems, null, 2)).toBeDefined();
    if (entry.path) expect(match?.path).toEqual(entry.path);
    if (entry.message) expect(match?.message).toMatch(entry.message);
  });

  it("accepts the minimal spec and a spec that uses every node type", () => {
    expect(validateWorkflowSpec(minimalSpec())).toEqual({ ok: true, spec: minimalSpec() });
    const result = validateWorkflowSpec(everyNodeTypeSpec());
    expect(result.ok ? [] : result.problems).toEqual([]);
    const types = new Set(everyNodeTypeSpec().nodes.map((node) => node.type));
    expect(types.size).toBe(11);
  });

  it("reports every problem at once, not only the first", () => {
    const spec = withSpec((draft) => {
      draft.nodes.push({ id: "mystery", type: "wizard", config: {} } as never);
      draft.nodes[1] = { id: "agent", type: "agent", config: { name: "", instructions: "x" } };
      draft.edges.push(edge("agent", "ghost"));
    });
    const codes = problemsOf(spec).map((problem) => problem.code);
    expect(codes).toEqual(expect.arrayContaining(["unknown_node_type", "invalid_field", "dangling_edge"]));
  });

  it("reports a provider that is not configured, when the caller says which are", () => {
    const spec = withSpec((draft) => {
      draft.nodes[1] = { id: "agent", type: "agent", config: { name: "a", instructions: "", provider: "openai" } };
    });
    expect(problemsOf(spec)).toEqual([]);
    const result = validateWorkflowSpec(spec, { knownProviders: ["scripted", "anthropic"] });
    expect(result.ok ? [] : result.problems).toEqual([
      {
        code: "unknown_provider",
        message: "agent 'agent' uses provider 'openai'; expected one of: scripted, anthropic",
        nodeId: "agent",
        path: ["nodes", 1, "config", "provider"],
      },
    ]);
    expect(validateWorkflowSpec(minimalSpec(), { knownProviders: ["scripted"] }).ok).toBe(true);
  });

  it("still honours default provider and model when another setting is invalid", () => {
    const spec = withSpec((draft) => Object.assign(draft, { settings: { ...draft.settings, stepRetries: "twice" } }));
    expect(problemsOf(spec).map((problem) => problem.code)).toEqual(["invalid_field"]);
  });

  it("reports a spec that is not an object", () => {
    expect(problemsOf("nope")).toEqual([{ code: "invalid_field", message: 'expected a workflow spec object, found the string "nope"', path: [] }]);
  });

  it("accepts a loop that forks and merges inside it", () => {
    const spec = withSpec((draft) => {
      draft.nodes.push(
        { id: "fork", type: "fork", config: {} },
        { id: "other", type: "agent", config: { name: "other", instructions: "" } },
        { id: "merge", type: "merge", config: {} },
        { id: "router", type: "selector", config: { instructions: "" } },
      );
      draft.edges = [
        edge("input", "fork"),
        edge("fork", "agent"),
        edge("fork", "other"),
        edge("agent", "merge"),
        edge("other", "merge"),
        edge("merge", "router"),
        edge("router", "fork"),
        edge("router", "output", "done"),
      ];
    });
    expect(problemsOf(spec)).toEqual([]);
  });

  it("accepts a selector loop, whose cycle passes through the selector", () => {
    const spec = withSpec((draft) => {
      draft.nodes.push({ id: "router", type: "selector", config: { instructions: "again?" } });
      draft.edges.splice(1, 1, edge("agent", "router"), edge("router", "agent"), edge("router", "output", "done"));
    });
    expect(problemsOf(spec)).toEqual([]);
  });
});
