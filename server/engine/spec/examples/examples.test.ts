import { describe, expect, it } from "vitest";
import { compileWorkflow } from "../compile";
import { validateWorkflowSpec } from "../../../../runtime/workflow-spec/validate";
import { EXAMPLE_SPECS } from "./index";

describe("example specs", () => {
  it.each(Object.keys(EXAMPLE_SPECS))("%s is valid and compiles", (slug) => {
    const result = validateWorkflowSpec(EXAMPLE_SPECS[slug]);
    expect(result.ok ? [] : result.problems).toEqual([]);
    expect(compileWorkflow(EXAMPLE_SPECS[slug]).entry).toBe("input");
  });
});
