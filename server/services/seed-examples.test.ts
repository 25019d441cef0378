import { expect, it } from "vitest";
import { describeEachDatabase } from "../db/testing/test-databases";
import { listRevisions, listWorkflows } from "../db/workflow-store";
import { EXAMPLE_SPECS } from "../engine/spec/examples";
import { seedExampleWorkflows } from "./seed-examples";
import { createWorkflow, deleteWorkflow } from "./workflow-service";

const EXAMPLE_NAMES = Object.values(EXAMPLE_SPECS)
  .map((spec) => (spec as { name: string }).name)
  .sort();

describeEachDatabase("seedExampleWorkflows", (open) => {
  it("creates every example as a workflow with one revision, hello agent listed first", async () => {
    const { database } = await open();
    const report = await seedExampleWorkflows(database);
    expect(report.seeded).toBe(true);
    expect(report.workflowIds).toHaveLength(Object.keys(EXAMPLE_SPECS).length);
    const workflows = await listWorkflows(database);
    expect(workflows.map((workflow) => workflow.name).sort()).toEqual(EXAMPLE_NAMES);
    expect(workflows[0]?.name).toBe("Hello agent");
    expect(workflows[0]?.description).toBe("One agent with a shell tool answers the input.");
    for (const workflow of workflows) {
      const revisions = await listRevisions(database, workflow.id);
      expect(revisions).toHaveLength(1);
      expect(workflow.headRevisionId).toBe(revisions[0]?.id);
      expect((revisions[0]?.spec as { name: string }).name).toBe(workflow.name);
    }
  });

  it("does nothing on the second call", async () => {
    const { database } = await open();
    await seedExampleWorkflows(database);
    const second = await seedExampleWorkflows(database);
    expect(second).toEqual({ seeded: false, workflowIds: [] });
    expect(await listWorkflows(database)).toHaveLength(Object.keys(EXAMPLE_SPECS).length);
  });

  it("never re-seeds after the user deleted every example", async () => {
    const { database } = await open();
    const first = await seedExampleWorkflows(database);
    for (const id of first.workflowIds) await deleteWorkflow(database, id);
    expect(await listWorkflows(database)).toHaveLength(0);
    expect((await seedExampleWorkflows(database)).seeded).toBe(false);
    expect(await listWorkflows(database)).toHaveLength(0);
  });

  it("leaves a database that already holds a workflow alone", async () => {
    const { database } = await open();
    await createWorkflow(database, { name: "mine" });
    expect((await seedExampleWorkflows(database)).seeded).toBe(false);
    expect((await listWorkflows(database)).map((workflow) => workflow.name)).toEqual(["mine"]);
  });
});
