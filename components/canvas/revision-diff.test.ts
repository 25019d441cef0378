import { describe, expect, it } from "vitest";
import { minimalSpec } from "../../runtime/workflow-spec/spec-fixtures";
import { documentFromSpec } from "./canvas-document";
import { diffDocuments } from "./revision-diff";

describe("revision diff", () => {
  it("marks added, removed and changed nodes and edges, lists config changes, and shows removed nodes where they were", () => {
    const before = documentFromSpec(minimalSpec(), { nodes: { input: { x: 0, y: 0 }, agent: { x: 300, y: 0 }, output: { x: 600, y: 0 } } }, "x");
    const spec = minimalSpec();
    spec.nodes = spec.nodes.filter((node) => node.id !== "output");
    spec.nodes.push({ id: "output-2", type: "output", config: {} });
    const agent = spec.nodes.find((node) => node.id === "agent");
    if (agent?.type === "agent") agent.config = { ...agent.config, instructions: "Answer briefly." };
    spec.edges = [spec.edges[0] as never, { id: "agent.out->output-2.in", source: "agent", sourcePort: "out", target: "output-2", targetPort: "in" }];
    const after = documentFromSpec(spec, { nodes: { input: { x: 0, y: 0 }, agent: { x: 300, y: 0 }, "output-2": { x: 600, y: 200 } } }, "x");
    const diff = diffDocuments(before, after);
    expect(Object.fromEntries(diff.nodes)).toEqual({ agent: "changed", "output-2": "added", output: "removed" });
    expect(diff.changes.get("agent")).toEqual([{ field: "config.instructions", before: "Answer.", after: "Answer briefly." }]);
    expect(diff.edges.get("agent.out->output-2.in")).toBe("added");
    expect([...diff.edges.values()]).toContain("removed");
    expect(diff.merged.nodes.map((node) => node.id)).toEqual(["input", "agent", "output-2", "output"]);
    expect(diff.merged.positions.output).toEqual({ x: 600, y: 0 });
    expect(diff.nodes.has("input")).toBe(false);
  });
});
