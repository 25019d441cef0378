import { expect, it } from "vitest";
import { describeEachDatabase } from "../db/testing/test-databases";
import { listRevisions, listWorkflows } from "../db/workflow-store";
import { EXAMPLE_LAYOUTS, EXAMPLE_SPECS } from "../engine/spec/examples";
import { seedExamplesAtStart, seedExampleWorkflows } from "./seed-examples";
import { templateSlugs, templateWorkflowId } from "./template-catalog";
import { createWorkflow, deleteWorkflow, updateWorkflow } from "./workflow-service";

const EXAMPLE_NAMES = Object.values(EXAMPLE_SPECS)
  .map((spec) => (spec as { name: string }).name)
  .sort();

describeEachDatabase("seedExampleWorkflows", (open) => {
  it("creates every example as a workflow with one revision laid out as stored, hello agent listed first", async () => {
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
      // The stored layout of the example, a position for each of its nodes (the editor opens it without a jump).
      const slug = Object.keys(EXAMPLE_SPECS).find((key) => (EXAMPLE_SPECS[key] as { name: string }).name === workflow.name) as string;
      const nodeIds = (revisions[0]?.spec as { nodes: { id: string }[] }).nodes.map((node) => node.id);
      expect(revisions[0]?.layout).toEqual(EXAMPLE_LAYOUTS[slug]);
      expect(Object.keys((revisions[0]?.layout as { nodes: object }).nodes).sort()).toEqual([...nodeIds].sort());
    }
  });

  it("does nothing on the second call", async () => {
    const { database } = await open();
    await seedExampleWorkflows(database);
    const second = await seedExampleWorkflows(database);
    expect(second).toEqual({ seeded: false, workflowIds: [], laidOut: [] });
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

  it("a database whose first workflow came through the API still gets every example, once", async () => {
    const { database } = await open();
    await createWorkflow(database, { name: "mine" });
    const report = await seedExampleWorkflows(database);
    expect(report.workflowIds).toHaveLength(Object.keys(EXAMPLE_SPECS).length);
    expect((await listWorkflows(database, { limit: 500 })).map((workflow) => workflow.name).sort()).toEqual([...EXAMPLE_NAMES, "mine"].sort());
    // A restart seeds nothing more.
    expect(await seedExampleWorkflows(database)).toEqual({ seeded: false, workflowIds: [], laidOut: [] });
    expect(await listWorkflows(database, { limit: 500 })).toHaveLength(EXAMPLE_NAMES.length + 1);
  });

  it("never brings back one deleted or renamed example; each seeded revision carries its marker", async () => {
    const { database } = await open();
    const first = await seedExampleWorkflows(database);
    const [deleted, renamed] = first.workflowIds;
    if (deleted === undefined || renamed === undefined) throw new Error("expected examples");
    const revision = (await listRevisions(database, deleted))[0];
    expect(revision?.message).toMatch(/^Seeded example: [a-z0-9-]+$/);
    await deleteWorkflow(database, deleted);
    await updateWorkflow(database, { workflowId: renamed, name: "My copy" });
    expect((await seedExampleWorkflows(database)).seeded).toBe(false);
    expect(await listWorkflows(database, { limit: 500 })).toHaveLength(EXAMPLE_NAMES.length - 1);
  });

  it("a database seeded before the marker existed (examples made from the templates) is not seeded twice", async () => {
    const { database } = await open();
    for (const slug of templateSlugs()) await templateWorkflowId(database, slug);
    const before = await listWorkflows(database, { limit: 500 });
    expect(before).toHaveLength(EXAMPLE_NAMES.length);
    expect((await seedExampleWorkflows(database)).seeded).toBe(false);
    expect(await listWorkflows(database, { limit: 500 })).toHaveLength(EXAMPLE_NAMES.length);
  });

  it("seeds at server start; a database that cannot be opened is logged and left to the home page", async () => {
    const { database } = await open();
    delete (globalThis as Record<symbol, unknown>)[Symbol.for("rath.examplesSeeded")];
    const logged: string[] = [];
    const log = { info: (line: string) => logged.push(line), error: (line: string) => logged.push(line) };
    const failed = await seedExamplesAtStart(() => Promise.reject(new Error("connection refused")), log);
    expect(failed).toBeNull();
    expect(logged).toEqual(["[rath] the example workflows were not seeded at start (the home page tries again): connection refused"]);
    const report = await seedExamplesAtStart(() => Promise.resolve(database), log);
    expect(report?.workflowIds).toHaveLength(EXAMPLE_NAMES.length);
    expect(logged[1]).toBe(`[rath] seeded ${EXAMPLE_NAMES.length} example workflow(s)`);
    expect(await listWorkflows(database, { limit: 500 })).toHaveLength(EXAMPLE_NAMES.length);
    delete (globalThis as Record<symbol, unknown>)[Symbol.for("rath.examplesSeeded")];
  });
});
