import { describe, expect, it } from "vitest";
import { compileWorkflow } from "../compile";
import { validateWorkflowSpec } from "../../../../runtime/workflow-spec/validate";
import { NODE_TYPES } from "../../../../runtime/workflow-spec/workflow-spec";
import { EXAMPLE_SPECS } from "./index";

describe("example specs", () => {
  it.each(Object.keys(EXAMPLE_SPECS))("%s is valid and compiles", (slug) => {
    const result = validateWorkflowSpec(EXAMPLE_SPECS[slug]);
    expect(result.ok ? [] : result.problems).toEqual([]);
    expect(compileWorkflow(EXAMPLE_SPECS[slug]).entry).toBe("input");
  });
});

describe("templates cover the palette", () => {
  it("uses every node type of NODE_TYPES in at least one template", () => {
    const used = new Set(Object.values(EXAMPLE_SPECS).flatMap((spec) => (spec as { nodes: Array<{ type: string }> }).nodes.map((node) => node.type)));
    expect(NODE_TYPES.filter((type) => !used.has(type))).toEqual([]);
  });
});
