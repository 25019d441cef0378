import { describe, expect, it } from "vitest";
import { comparePickVerdict, type PickedRun } from "./run-compare-pick";

function run(id: string, overrides: Partial<PickedRun> = {}): PickedRun {
  return { id, workflowId: "wf_a", workflowName: "Alpha", status: "succeeded", startedAt: "2026-12-01T09:00:00.000Z", ...overrides };
}

describe("comparePickVerdict", () => {
  it("asks for exactly two runs", () => {
    expect(comparePickVerdict([])).toEqual({ href: null, problem: "Select two runs to compare them.", notes: [] });
    expect(comparePickVerdict([run("run_a")]).problem).toBe("Select one more run to compare with.");
    const three = comparePickVerdict([run("run_a"), run("run_b"), run("run_c")]);
    expect(three).toEqual({ href: null, problem: "Select exactly two runs to compare; 3 are selected.", notes: [] });
  });

  it("links two finished runs of one workflow to the compare page, in the order picked", () => {
    expect(comparePickVerdict([run("run_b"), run("run_a")])).toEqual({ href: "/compare?runs=run_b,run_a", problem: null, notes: [] });
  });

  it("refuses a run that never started, naming it", () => {
    const verdict = comparePickVerdict([run("run_a"), run("run_0123456789abcdef", { status: "cancelled", startedAt: null })]);
    expect(verdict.href).toBeNull();
    expect(verdict.problem).toMatch(/^Run \S+ never started \(cancelled\), so it has no session to compare\.$/);
  });

  it("compares different workflows and moving runs, and says so", () => {
    const verdict = comparePickVerdict([run("run_a"), run("run_b", { workflowId: "wf_b", workflowName: "Beta", status: "running" })]);
    expect(verdict.href).toBe("/compare?runs=run_a,run_b");
    expect(verdict.notes).toEqual([expect.stringContaining("Different workflows (Alpha, Beta)"), expect.stringMatching(/is running: it is compared as it is now\.$/)]);
  });
});
