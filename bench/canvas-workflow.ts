/**
 * The workflow the canvas benchmark opens: exactly 300 nodes and 400 edges, valid (so it is saved as a revision
 * like any other): Input → 199 Agents in a chain → Output, and 99 code tools, each wired to two neighbouring
 * agents (two wired to a third), laid out in a snaking grid. Pure.
 */
import type { WorkflowLayout } from "../runtime/workflow-spec/workflow-layout";
import type { WorkflowEdge, WorkflowNode, WorkflowSpec } from "../runtime/workflow-spec/workflow-spec";

const COLUMNS = 20;

function edge(source: string, sourcePort: string, target: string, targetPort: string): WorkflowEdge {
  return { id: `${source}.${sourcePort}->${target}.${targetPort}`, source, sourcePort, target, targetPort };
}

/** The benchmark's spec and layout. */
export function benchWorkflow(): { spec: WorkflowSpec; layout: WorkflowLayout } {
  const agents = Array.from({ length: 199 }, (_, index) => `agent-${index + 1}`);
  const nodes: WorkflowNode[] = [
    { id: "input", type: "input", config: { defaultText: "benchmark" } },
    ...agents.map((id, index): WorkflowNode => ({ id, type: "agent", config: { name: `agent_${index + 1}`, instructions: `Step ${index + 1}: refine the draft.` } })),
    { id: "output", type: "output", config: {} },
  ];
  const chain = ["input", ...agents, "output"];
  const edges: WorkflowEdge[] = chain.slice(1).map((id, index) => edge(chain[index] as string, "out", id, "in"));
  for (let index = 0; index < 99; index++) {
    const id = `tool-${index + 1}`;
    nodes.push({
      id,
      type: "tool",
      config: { kind: "code", name: `tool_${index + 1}`, description: `Tool ${index + 1}.`, parametersSchema: { type: "object", properties: {} }, code: "export default () => 1;" },
    });
    edges.push(edge(id, "out", agents[index * 2] as string, "tools"), edge(id, "out", agents[index * 2 + 1] as string, "tools"));
  }
  edges.push(edge("tool-1", "out", "agent-199", "tools"), edge("tool-2", "out", "agent-199", "tools"));
  const positions: WorkflowLayout["nodes"] = {};
  chain.forEach((id, index) => {
    const row = Math.floor(index / COLUMNS);
    const column = row % 2 === 0 ? index % COLUMNS : COLUMNS - 1 - (index % COLUMNS);
    positions[id] = { x: column * 300, y: row * 360 };
  });
  for (let index = 0; index < 99; index++) {
    const anchor = positions[agents[index * 2] as string] as { x: number; y: number };
    positions[`tool-${index + 1}`] = { x: anchor.x + 150, y: anchor.y + 190 };
  }
  return { spec: { version: 1, name: "canvas benchmark (300 nodes)", settings: { defaultProvider: "scripted", defaultModel: "scripted-1" }, nodes, edges }, layout: { nodes: positions } };
}
