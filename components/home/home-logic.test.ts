import { describe, expect, it } from "vitest";
import { validateWorkflowSpec } from "../../runtime/workflow-spec/validate";
import { blankSpec } from "./blank-spec";
import { lineColumnAt, readImportFile } from "./import-spec";
import { matchesWorkflow } from "./workflow-workspace";

const helloAgent = {
  version: 1,
  name: "Hello agent",
  settings: { defaultProvider: "scripted", defaultModel: "scripted-1" },
  nodes: [
    { id: "input", type: "input", config: {} },
    { id: "assistant", type: "agent", config: { name: "assistant", instructions: "Help." } },
    { id: "output", type: "output", config: {} },
  ],
  edges: [
    { id: "e-input-assistant", source: "input", sourcePort: "out", target: "assistant", targetPort: "in" },
    { id: "e-assistant-output", source: "assistant", sourcePort: "out", target: "output", targetPort: "in" },
  ],
};

describe("blank workflow", () => {
  it("is a valid Input → Output spec with the given name", () => {
    const result = validateWorkflowSpec(blankSpec("Mine"));
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.spec.name).toBe("Mine");
      expect(result.spec.nodes.map((node) => node.type)).toEqual(["input", "output"]);
    }
  });
});

describe("readImportFile", () => {
  it("names the line and column of a JSON syntax error", () => {
    const result = readImportFile('{\n  "version": 1,\n  "name": "x",,\n}');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems).toHaveLength(1);
      expect(result.problems[0]?.where).toBe("line 3, column 15");
      expect(result.problems[0]?.message).toMatch(/^not valid JSON/);
    }
  });
  it("lists every spec problem with its node, edge or path", () => {
    const spec = structuredClone(helloAgent) as { nodes: Array<{ id: string; config: Record<string, unknown> }>; edges: Array<{ target: string }> };
    spec.edges[0]!.target = "nowhere";
    const result = readImportFile(JSON.stringify(spec));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      const dangling = result.problems.find((problem) => problem.message.includes("nowhere"));
      expect(dangling?.where).toContain("edge e-input-assistant");
    }
  });
  it("accepts a bare spec and an export with its layout", () => {
    const bare = readImportFile(JSON.stringify(helloAgent));
    expect(bare.ok && bare.name).toBe("Hello agent");
    const wrapped = readImportFile(JSON.stringify({ spec: helloAgent, layout: { nodes: { input: { x: 1, y: 2 } } } }));
    expect(wrapped.ok && wrapped.layout).toEqual({ nodes: { input: { x: 1, y: 2 } } });
    const badLayout = readImportFile(JSON.stringify({ spec: helloAgent, layout: { nodes: { input: { x: "a" } } } }));
    expect(badLayout.ok).toBe(false);
  });
  it("refuses something that is not a spec at all, saying where", () => {
    const result = readImportFile("[1, 2]");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0]?.message.length).toBeGreaterThan(0);
  });
  it("computes line and column of an offset", () => {
    expect(lineColumnAt("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
  });
});

describe("workflow search", () => {
  const workflow = { name: "Fork/merge research", description: "Two researchers", nodeTypes: ["input", "fork", "merge"] };
  it("matches every word in name, description or node types, ignoring case", () => {
    expect(matchesWorkflow(workflow, "")).toBe(true);
    expect(matchesWorkflow(workflow, "FORK researchers")).toBe(true);
    expect(matchesWorkflow(workflow, "merge")).toBe(true);
    expect(matchesWorkflow(workflow, "selector")).toBe(false);
  });
});
