import { describe, expect, it } from "vitest";
import { isRathError } from "../../../runtime/errors";
import { canonicalJson } from "../../../runtime/workflow-spec/canonical-json";
import { compileWorkflow, hashWorkflowSpec } from "./compile";
import { Plan } from "./plan";
import { edge, everyNodeTypeSpec, minimalSpec } from "../../../runtime/workflow-spec/spec-fixtures";

/** The same value with every object's keys in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).reverse().map(([key, entry]) => [key, reverseKeys(entry)]));
  }
  return value;
}

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops undefined members", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: undefined }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"z":1}]},"b":1}');
  });

  it("refuses values JSON cannot carry", () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(/expected a finite number at \$\.a, found NaN/);
  });
});

describe("compileWorkflow", () => {
  it("gives the same plan id and hash for the same spec, whatever its key order", () => {
    const spec = everyNodeTypeSpec();
    const first = compileWorkflow(spec);
    const second = compileWorkflow(JSON.parse(JSON.stringify(spec)));
    const reordered = compileWorkflow(reverseKeys(spec));
    expect(JSON.stringify(reverseKeys(spec))).not.toBe(JSON.stringify(spec));
    expect(second.id).toBe(first.id);
    expect(reordered.hash).toBe(first.hash);
    expect(reordered.id).toBe(first.id);
    expect(first.hash).toBe(hashWorkflowSpec(spec));
    expect(first.id).toBe(`plan_${first.hash.slice(0, 32)}`);
  });

  it("gives a different hash when anything that matters changes", () => {
    const changed = everyNodeTypeSpec();
    changed.name = "renamed";
    expect(compileWorkflow(changed).hash).not.toBe(compileWorkflow(everyNodeTypeSpec()).hash);
  });

  it("compiles wiring, joins, candidates and attachments into plain JSON", () => {
    const plan = compileWorkflow(everyNodeTypeSpec());
    expect(Plan.parse(JSON.parse(JSON.stringify(plan)))).toEqual(plan);
    expect(plan.entry).toBe("input");
    expect(plan.outputs).toEqual(["output"]);
    expect(plan.nodes.fork?.successors.map((successor) => successor.target)).toEqual(["worker", "sub"]);
    expect(plan.nodes.worker?.tools).toEqual(["shell", "add", "everything"]);
    expect(plan.nodes.worker?.memory).toEqual(["notes"]);
    expect(plan.nodes.merge?.join).toEqual(["worker.out->merge.in", "sub.out->merge.in"]);
    expect(plan.nodes.router?.candidates).toEqual([
      { index: 0, edgeId: "router.out->compress.in", target: "compress", name: "compress", description: "compressor compress" },
    ]);
    expect(plan.nodes.router?.done).toEqual({ edgeId: "router.done->output.in", target: "output" });
    expect(plan.nodes.compress?.predecessors.map((predecessor) => predecessor.source)).toEqual(["merge", "router"]);
    const compress = plan.nodes.compress?.node;
    expect(compress?.type === "compressor" && compress.config).toMatchObject({ provider: "scripted", model: "scripted-1" });
  });

  it("describes selector candidates by the target's description, or an agent's name and instructions", () => {
    const spec = minimalSpec();
    spec.nodes.push({ id: "router", type: "selector", config: { instructions: "" } });
    spec.nodes[1] = { id: "agent", type: "agent", description: undefined, config: { name: "writer", instructions: "Write the draft.\nMore." } };
    spec.edges.splice(1, 1, edge("agent", "router"), edge("router", "agent"), edge("router", "output", "done"));
    expect(compileWorkflow(spec).nodes.router?.candidates?.[0]).toMatchObject({ name: "writer", description: "writer: Write the draft." });
  });

  it("refuses an invalid spec with invalid_workflow and every problem in details", () => {
    const spec = minimalSpec();
    spec.edges = [];
    try {
      compileWorkflow(spec);
      expect.unreachable("compileWorkflow should have thrown");
    } catch (error) {
      expect(isRathError(error, "invalid_workflow")).toBe(true);
      const problems = (error as { details: { problems: { code: string }[] } }).details.problems;
      expect(problems.map((problem) => problem.code)).toEqual(expect.arrayContaining(["unreachable_node", "dead_end"]));
    }
  });
});
