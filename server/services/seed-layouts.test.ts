import { expect, it } from "vitest";
import { describeEachDatabase } from "../db/testing/test-databases";
import { listRevisions, listWorkflows } from "../db/workflow-store";
import { EXAMPLE_LAYOUTS, EXAMPLE_SPECS } from "../engine/spec/examples";
import { seedExampleWorkflows } from "./seed-examples";
import { layoutMessage } from "./seed-layouts";
import { templateSlugs, templateWorkflowId } from "./template-catalog";
import { stripSeededLayouts } from "./testing/strip-seeded-layouts";
import { deleteWorkflow, saveRevision } from "./workflow-service";

const EXAMPLE_COUNT = Object.keys(EXAMPLE_SPECS).length;

function slugOf(name: string): string {
  return Object.keys(EXAMPLE_SPECS).find((slug) => (EXAMPLE_SPECS[slug] as { name: string }).name === name) as string;
}

describeEachDatabase("examples seeded without a layout get their stored layout at start", (open) => {
  it("a new revision on top of the seeded one: same spec, the stored layout; the seeded revision and the home order stay", async () => {
    const { database } = await open();
    await seedExampleWorkflows(database);
    await stripSeededLayouts(database);
    const before = await listWorkflows(database, { limit: 500 });

    const report = await seedExampleWorkflows(database);
    expect(report.seeded).toBe(false);
    expect(report.workflowIds).toEqual([]);
    expect([...report.laidOut].sort()).toEqual(before.map((workflow) => workflow.id).sort());

    const after = await listWorkflows(database, { limit: 500 });
    // Same order and updatedAt: the upgrade is not the user's edit.
    expect(after.map((workflow) => [workflow.id, workflow.updatedAt.toISOString()])).toEqual(before.map((workflow) => [workflow.id, workflow.updatedAt.toISOString()]));
    for (const workflow of after) {
      const [head, seeded, ...older] = await listRevisions(database, workflow.id);
      expect(older).toEqual([]);
      if (head === undefined || seeded === undefined) throw new Error(`expected two revisions of ${workflow.name}`);
      expect(workflow.headRevisionId).toBe(head.id);
      expect(head.number).toBe(2);
      expect(head.parentRevisionId).toBe(seeded.id);
      expect(head.message).toBe(layoutMessage(slugOf(workflow.name)));
      expect(head.layout).toEqual(EXAMPLE_LAYOUTS[slugOf(workflow.name)]);
      expect(head.spec).toEqual(seeded.spec);
      expect([head.specSha256, head.planId]).toEqual([seeded.specSha256, seeded.planId]);
      // The seeded revision is not rewritten.
      expect(seeded.layout).toEqual({ nodes: {} });
    }

    // Once: the next start finds the layout in the head.
    expect(await seedExampleWorkflows(database)).toEqual({ seeded: false, workflowIds: [], laidOut: [] });
  });

  it("leaves an example whose spec the user edited, one with positions of its own, and a deleted one", async () => {
    const { database } = await open();
    await seedExampleWorkflows(database);
    await stripSeededLayouts(database);
    const [edited, moved, deleted, ...untouched] = await listWorkflows(database, { limit: 500 });
    if (edited === undefined || moved === undefined || deleted === undefined) throw new Error("expected examples");
    const headOf = async (workflowId: string) => (await listRevisions(database, workflowId))[0];
    const editedSpec = structuredClone((await headOf(edited.id))?.spec) as { description?: string };
    editedSpec.description = "my own words";
    await saveRevision(database, { workflowId: edited.id, spec: editedSpec });
    const movedHead = await headOf(moved.id);
    const someNode = (movedHead?.spec as { nodes: { id: string }[] }).nodes[0]?.id as string;
    await saveRevision(database, { workflowId: moved.id, spec: movedHead?.spec, layout: { nodes: { [someNode]: { x: 5, y: 7 } } } });
    await deleteWorkflow(database, deleted.id);

    const report = await seedExampleWorkflows(database);
    expect([...report.laidOut].sort()).toEqual(untouched.map((workflow) => workflow.id).sort());
    expect((await headOf(edited.id))?.spec).toEqual(editedSpec);
    expect((await headOf(edited.id))?.layout).toEqual({ nodes: {} });
    expect((await headOf(moved.id))?.layout).toEqual({ nodes: { [someNode]: { x: 5, y: 7 } } });
    expect(await listRevisions(database, deleted.id)).toHaveLength(1);
  });

  it("a database seeded before the marker existed (examples made from the templates, by name) gets the layouts too", async () => {
    const { database } = await open();
    for (const slug of templateSlugs()) await templateWorkflowId(database, slug);
    await stripSeededLayouts(database);
    const report = await seedExampleWorkflows(database);
    expect(report.workflowIds).toEqual([]);
    expect(report.laidOut).toHaveLength(EXAMPLE_COUNT);
    for (const workflow of await listWorkflows(database, { limit: 500 })) {
      expect((await listRevisions(database, workflow.id))[0]?.layout).toEqual(EXAMPLE_LAYOUTS[slugOf(workflow.name)]);
    }
  });
});
