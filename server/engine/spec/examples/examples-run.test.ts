import { describe, expect, it } from "vitest";
import { LocalMemoryStore } from "../../../../runtime/memory/local-memory-store";
import { createDemoProvider } from "../../../../runtime/providers/demo-provider";
import { runPlanSequentially } from "../../nodes/sequential-runner";
import { testEnv } from "../../nodes/test-env";
import { compileWorkflow } from "../compile";
import { EXAMPLE_SPECS } from "./index";

describe("example specs run offline with the demo provider", () => {
  it.each([
    ["hello-agent", ["input", "assistant", "output"]],
    ["fork-merge-research", ["input", "fork", "pros", "cons", "merge", "summary", "output"]],
    ["selector-loop", ["input", ...["writer", "reviewer", "router"], ...["writer", "reviewer", "router"], ...["writer", "reviewer", "router"], "editor", "output"]],
    ["support-triage", ["input", "triage", "router", "specialist", "router", "specialist", "router", "specialist", "router", "wrapup", "output"]],
    ["long-conversation-compressor", ["input", "facts", "risks", "compress", "planner", "output"]],
    ["approval", ["input", "drafter", "review", "review", "output"]],
    ["memory-notes", ["input", "assistant", "output"]],
  ])("%s reaches its output", async (slug, path) => {
    const store = new LocalMemoryStore({ name: "notes" });
    const env = testEnv({ scripted: createDemoProvider() }, { getMemoryStore: () => store });
    const result = await runPlanSequentially(compileWorkflow(EXAMPLE_SPECS[slug]), env, { decide: async () => ({ kind: "approve" }) });
    expect(result.status).toBe("succeeded");
    expect(result.steps.map((step) => step.nodeId)).toEqual(path);
    expect(result.outputs).toHaveLength(1);
    expect(result.outputs[0]?.text.length).toBeGreaterThan(0);
    for (const output of result.outputs) await output.session.release();
  });
});
