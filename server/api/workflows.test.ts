import { expect, it } from "vitest";
import { describeEachDatabase } from "../db/testing/test-databases";
import { callerFor, exampleSpec, expectApiError, rowCounts } from "./testing/api-harness";

function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).reverse().map(([key, item]) => [key, reversedKeys(item)]));
  }
  return value;
}

describeEachDatabase("workflows router", (open) => {
  it("creates, lists, gets, revises and soft-deletes a workflow", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const created = await api.workflows.create({ name: "Hello", description: "first", spec: exampleSpec("hello-agent") });
    expect(created.head?.number).toBe(1);
    expect(created.workflow.headRevisionId).toBe(created.head?.id);
    expect(created.head?.specSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(created.head?.planId).toBe(`plan_${created.head?.specSha256.slice(0, 32)}`);

    const spec = exampleSpec("hello-agent");
    spec.description = "changed";
    const second = await api.workflows.saveRevision({
      workflowId: created.workflow.id,
      parentRevisionId: created.head?.id ?? null,
      spec,
      layout: { nodes: { input: { x: 10, y: 20 } } },
      message: "describe it",
    });
    expect(second.number).toBe(2);
    expect(second.parentRevisionId).toBe(created.head?.id);
    expect(second.specSha256).not.toBe(created.head?.specSha256);
    expect(second.layout).toEqual({ nodes: { input: { x: 10, y: 20 } } });

    const revisions = await api.workflows.listRevisions({ workflowId: created.workflow.id });
    expect(revisions.map((revision) => revision.number)).toEqual([2, 1]);
    const got = await api.workflows.get({ workflowId: created.workflow.id });
    expect(got.head?.id).toBe(second.id);
    expect(got.workflow.name).toBe("Hello");
    expect(got.head?.spec).toMatchObject({ description: "changed" });
    expect((await api.workflows.list()).map((workflow) => workflow.id)).toContain(created.workflow.id);

    const renamed = await api.workflows.update({ workflowId: created.workflow.id, name: "Hello again" });
    expect(renamed).toMatchObject({ name: "Hello again", description: "first", headRevisionId: second.id });
    await expectApiError(api.workflows.update({ workflowId: created.workflow.id }), "BAD_REQUEST");

    const deleted = await api.workflows.delete({ workflowId: created.workflow.id });
    expect(deleted.deletedAt).not.toBeNull();
    expect((await api.workflows.list()).map((workflow) => workflow.id)).not.toContain(created.workflow.id);
    const missing = await expectApiError(api.workflows.get({ workflowId: created.workflow.id }), "NOT_FOUND");
    expect(missing.code).toBe("not_found");
    expect(missing.message).toContain(created.workflow.id);
    await expectApiError(api.workflows.update({ workflowId: created.workflow.id, name: "x" }), "NOT_FOUND");
    expect((await api.workflows.listRevisions({ workflowId: created.workflow.id }).catch((error: unknown) => error)) instanceof Error).toBe(true);
  });

  it("gives the same spec the same sha256 and plan id, whatever the key order or layout", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const first = await api.workflows.create({ name: "a", spec: exampleSpec("fork-merge-research") });
    const second = await api.workflows.create({
      name: "b",
      spec: reversedKeys(exampleSpec("fork-merge-research")),
      layout: { nodes: { input: { x: 1, y: 2 } } },
    });
    expect(second.head?.specSha256).toBe(first.head?.specSha256);
    expect(second.head?.planId).toBe(first.head?.planId);
    const again = await api.workflows.saveRevision({ workflowId: first.workflow.id, spec: exampleSpec("fork-merge-research") });
    expect(again.specSha256).toBe(first.head?.specSha256);
    expect(again.number).toBe(2);
    const check = await api.workflows.validate({ spec: exampleSpec("fork-merge-research") });
    expect(check).toEqual({ ok: true, planId: first.head?.planId, specSha256: first.head?.specSha256 });
  });

  it("refuses an invalid spec with BAD_REQUEST and its problems, and writes nothing", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const workflow = await api.workflows.create({ name: "w", spec: exampleSpec("hello-agent") });
    const before = await rowCounts(database);
    const broken = exampleSpec("hello-agent");
    (broken.edges as unknown[]).push({ id: "e-bad", source: "assistant", sourcePort: "out", target: "nowhere", targetPort: "in" });

    const onSave = await expectApiError(api.workflows.saveRevision({ workflowId: workflow.workflow.id, spec: broken }), "BAD_REQUEST");
    expect(onSave.code).toBe("invalid_workflow");
    expect(onSave.httpStatus).toBe(422);
    expect(onSave.problems?.some((problem) => problem.edgeId === "e-bad" && problem.code === "dangling_edge")).toBe(true);

    const onCreate = await expectApiError(api.workflows.create({ name: "x", spec: { version: 1, nodes: [{ id: "a", type: "agent", config: {} }], edges: [] } }), "BAD_REQUEST");
    expect(onCreate.problems?.map((problem) => problem.code)).toEqual(expect.arrayContaining(["missing_input", "missing_output"]));
    expect(onCreate.problems?.some((problem) => problem.code === "invalid_field" && problem.nodeId === "a")).toBe(true);
    expect(await rowCounts(database)).toEqual(before);

    const validation = await api.workflows.validate({ spec: broken });
    expect(validation.ok).toBe(false);
  });

  it("flattens zod input errors per field and refuses a stale parent revision with CONFLICT", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const invalid = await expectApiError(api.workflows.create({ name: "   " }), "BAD_REQUEST");
    expect(invalid.code).toBe("invalid_argument");
    expect(Object.keys(invalid.fieldErrors ?? {})).toEqual(["name"]);

    const created = await api.workflows.create({ name: "w", spec: exampleSpec("hello-agent") });
    await api.workflows.saveRevision({ workflowId: created.workflow.id, parentRevisionId: created.head?.id ?? null, spec: exampleSpec("hello-agent") });
    const stale = await expectApiError(
      api.workflows.saveRevision({ workflowId: created.workflow.id, parentRevisionId: created.head?.id ?? null, spec: exampleSpec("hello-agent") }),
      "CONFLICT",
    );
    expect(stale.message).toContain("changed since it was loaded");
    expect((await api.workflows.listRevisions({ workflowId: created.workflow.id })).length).toBe(2);
  });
});

