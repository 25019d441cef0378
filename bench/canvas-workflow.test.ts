import { describe, expect, it } from "vitest";
import { validateWorkflowSpec } from "../runtime/workflow-spec/validate";
import { benchWorkflow } from "./canvas-workflow";

describe("canvas benchmark workflow", () => {
  it("has 300 nodes and 400 edges, is valid, and places every node", () => {
    const { spec, layout } = benchWorkflow();
    expect(spec.nodes).toHaveLength(300);
    expect(spec.edges).toHaveLength(400);
    const result = validateWorkflowSpec(spec);
    expect(result.ok ? [] : result.problems.slice(0, 3)).toEqual([]);
    expect(Object.keys(layout.nodes)).toHaveLength(300);
  });
});
