import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import { describeEachDatabase } from "./testing/test-databases";
import {
  createWorkflow,
  getRevision,
  getWorkflow,
  listRevisions,
  listWorkflows,
  saveRevision,
  softDeleteWorkflow,
  updateWorkflow,
  findRevisionBySpecHash,
} from "./workflow-store";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

describeEachDatabase("workflows", (open) => {
  it("saves immutable revisions with parents, numbers them and moves the head", async () => {
    const { database } = await open();
    const workflow = await createWorkflow(database, { name: "  Research  ", description: "finds things" });
    expect(workflow).toMatchObject({ name: "Research", description: "finds things", headRevisionId: null, deletedAt: null });
    const first = await saveRevision(database, {
      workflowId: workflow.id,
      parentRevisionId: null,
      spec: { nodes: [1] },
      layout: { a: { x: 1, y: 2 } },
      specSha256: sha("1"),
      planId: "plan-1",
      message: "first",
    });
    const second = await saveRevision(database, { workflowId: workflow.id, parentRevisionId: first.id, spec: { nodes: [1, 2] }, specSha256: sha("2"), planId: "plan-2" });
    expect([first.number, second.number]).toEqual([1, 2]);
    expect(second).toMatchObject({ parentRevisionId: first.id, spec: { nodes: [1, 2] }, layout: {} });
    expect((await getWorkflow(database, workflow.id))?.headRevisionId).toBe(second.id);
    expect((await listRevisions(database, workflow.id)).map((revision) => revision.id)).toEqual([second.id, first.id]);
    expect(await getRevision(database, first.id)).toEqual(first);

    const stale = await saveRevision(database, { workflowId: workflow.id, parentRevisionId: first.id, spec: {}, specSha256: sha("3"), planId: "p" }).catch(
      (error: unknown) => error,
    );
    expect(isRathError(stale, "conflict")).toBe(true);
    expect((stale as Error).message).toContain(`expected head revision ${first.id}, found ${second.id}`);
    expect(await listRevisions(database, workflow.id)).toHaveLength(2);
  });

  it("lets one of two concurrent saves from the same head win", async () => {
    const { database } = await open();
    const workflow = await createWorkflow(database, { name: "race" });
    const results = await Promise.allSettled(
      ["a", "b"].map((text) => saveRevision(database, { workflowId: workflow.id, parentRevisionId: null, spec: text, specSha256: sha(text), planId: text })),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(await listRevisions(database, workflow.id)).toHaveLength(1);
  });

  it("updates, lists and soft-deletes workflows", async () => {
    const { database } = await open();
    const a = await createWorkflow(database, { name: "a" });
    const b = await createWorkflow(database, { name: "b" });
    expect((await updateWorkflow(database, a.id, { description: "new" })).description).toBe("new");
    expect((await listWorkflows(database)).map((workflow) => workflow.id)).toEqual([a.id, b.id]);
    const deleted = await softDeleteWorkflow(database, b.id);
    expect(deleted.deletedAt).toBeInstanceOf(Date);
    expect((await listWorkflows(database)).map((workflow) => workflow.id)).toEqual([a.id]);
    expect((await listWorkflows(database, { includeDeleted: true })).map((workflow) => workflow.id).sort()).toEqual([a.id, b.id].sort());
    expect(await getWorkflow(database, b.id)).toBeNull();
    expect((await getWorkflow(database, b.id, { includeDeleted: true }))?.id).toBe(b.id);
    await expect(softDeleteWorkflow(database, b.id)).rejects.toThrow(`workflow ${b.id} not found`);
    await expect(saveRevision(database, { workflowId: b.id, parentRevisionId: null, spec: 1, specSha256: sha("x"), planId: "p" })).rejects.toThrow(/not found/);
    await expect(createWorkflow(database, { name: "   " })).rejects.toThrow();
  });

  it("updateWorkflow changes only the fields it is given", async () => {
    const { database } = await open();
    const workflow = await createWorkflow(database, { name: "before", description: "keep me" });
    const renamed = await updateWorkflow(database, workflow.id, { name: "after" });
    expect(renamed).toMatchObject({ name: "after", description: "keep me" });
    expect(await updateWorkflow(database, workflow.id, { description: "" })).toMatchObject({ name: "after", description: "" });
    expect(await updateWorkflow(database, workflow.id, {})).toMatchObject({ name: "after", description: "" });
    await expect(updateWorkflow(database, workflow.id, { name: " " })).rejects.toThrow();
  });

  it("findRevisionBySpecHash returns the newest revision with that hash of a live workflow", async () => {
    const { database } = await open();
    const first = await createWorkflow(database, { name: "first" });
    const second = await createWorkflow(database, { name: "second" });
    const older = await saveRevision(database, { workflowId: first.id, parentRevisionId: null, spec: { same: true }, specSha256: sha("same"), planId: "p" });
    const newer = await saveRevision(database, { workflowId: second.id, parentRevisionId: null, spec: { same: true }, specSha256: sha("same"), planId: "p" });
    expect((await findRevisionBySpecHash(database, sha("same")))?.id).toBe(newer.id);
    await softDeleteWorkflow(database, second.id);
    expect(await findRevisionBySpecHash(database, sha("same"))).toMatchObject({ id: older.id, workflowId: first.id, spec: { same: true } });
    expect(await findRevisionBySpecHash(database, sha("other"))).toBeNull();
  });
});
