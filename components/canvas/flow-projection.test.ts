import { describe, expect, it } from "vitest";
import type { WorkflowEdge, WorkflowNode } from "../../runtime/workflow-spec/workflow-spec";
import { NO_DECORATIONS, nodeData, projectEdges } from "./flow-projection";

const nodes: WorkflowNode[] = [
  { id: "input", type: "input", config: {} },
  { id: "a", type: "agent", config: { name: "a", instructions: "A." } },
  { id: "b", type: "agent", config: { name: "b", instructions: "B." } },
  { id: "output", type: "output", config: {} },
] as WorkflowNode[];
const edges: WorkflowEdge[] = [
  { id: "e1", source: "input", sourcePort: "out", target: "a", targetPort: "in" },
  { id: "e2", source: "a", sourcePort: "out", target: "b", targetPort: "in" },
  { id: "e3", source: "b", sourcePort: "out", target: "output", targetPort: "in" },
];

describe("flow projection keeps unchanged objects", () => {
  it("an edit of one node gives that node a new data object and keeps every other one", () => {
    const first = nodeData(nodes, edges, undefined, NO_DECORATIONS);
    const edited = nodes.map((node) => (node.id === "b" ? ({ ...node, label: "Bee" }) : node));
    const second = nodeData(edited, edges, undefined, NO_DECORATIONS, first);
    expect(second.get("b")).not.toBe(first.get("b"));
    expect(second.get("b")?.name).toBe("Bee");
    for (const id of ["input", "a", "output"]) expect(second.get(id)).toBe(first.get(id));
  });

  it("new problem arrays with the same messages keep the data; a new message or a run status changes only that node", () => {
    const first = nodeData(nodes, edges, undefined, { ...NO_DECORATIONS, nodeProblems: new Map([["a", ["no model"]]]) });
    const same = nodeData(nodes, edges, undefined, { ...NO_DECORATIONS, nodeProblems: new Map([["a", ["no model"]]]) }, first);
    expect(same.get("a")).toBe(first.get("a"));
    const running = nodeData(nodes, edges, undefined, { ...NO_DECORATIONS, nodeProblems: new Map([["a", ["no model"]]]), status: new Map([["b", { status: "running" as const }]]) }, same);
    expect(running.get("b")?.status).toBe("running");
    expect(running.get("b")).not.toBe(same.get("b"));
    expect(running.get("a")).toBe(first.get("a"));
  });

  it("edges keep their objects unless their content (selection, problems, wiring) changed", () => {
    const first = projectEdges(nodes, edges, new Set(), NO_DECORATIONS);
    const previous = new Map(first.map((edge) => [edge.id, edge]));
    const second = projectEdges(nodes, edges, new Set(["e2"]), NO_DECORATIONS, previous);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1]?.selected).toBe(true);
    expect(second[2]).toBe(first[2]);
    const withProblem = projectEdges(nodes, edges, new Set(["e2"]), { ...NO_DECORATIONS, edgeProblems: new Map([["e3", ["dead end"]]]) }, new Map(second.map((edge) => [edge.id, edge])));
    expect(withProblem[1]).toBe(second[1]);
    expect(withProblem[2]?.data?.problems).toEqual(["dead end"]);
  });
});
