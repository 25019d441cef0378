import { expect, it } from "vitest";
import { describeEachDatabase } from "../db/testing/test-databases";
import { revisionPlan } from "./revision-plans";
import { linearSpec, queueRun } from "./testing/engine-fixtures";

describeEachDatabase("compiled plans of revisions", (open) => {
  it("compiles a revision once per handle, and says when there is no such revision", async () => {
    const { database } = await open();
    const run = await queueRun(database, linearSpec([{ id: "a", directive: {} }]));
    const first = await revisionPlan(database, run.revisionId);
    if (first === null || !("plan" in first)) throw new Error("expected a compiled plan");
    expect(first.plan.hash).toBe(run.planHash);
    expect(first.revision.id).toBe(run.revisionId);
    // The second execution of a run of this revision reads nothing: the same plan object comes back.
    expect((await revisionPlan(database, run.revisionId)) === first).toBe(true);
    expect(await revisionPlan(database, "rev_missing")).toBeNull();
  });
});
