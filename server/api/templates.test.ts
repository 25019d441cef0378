import { expect, it } from "vitest";
import { describeEachDatabase } from "../db/testing/test-databases";
import { EXAMPLE_LAYOUTS, EXAMPLE_SPECS } from "../engine/spec/examples";
import { callerFor, exampleSpec, expectApiError, rowCounts } from "./testing/api-harness";

describeEachDatabase("templates router and workflows.duplicate", (open) => {
  it("lists every template with a one-line summary and the node types it uses", async () => {
    const { database } = await open();
    const templates = await callerFor(database).templates.list();
    expect(templates.map((template) => template.slug).sort()).toEqual(Object.keys(EXAMPLE_SPECS).sort());
    const hello = templates.find((template) => template.slug === "hello-agent");
    expect(hello?.name).toBe("Hello agent");
    expect(hello?.summary).toBe("One agent with a shell tool answers the input.");
    expect(hello?.nodeTypes).toEqual(["input", "agent", "tool", "output"]);
    for (const template of templates) expect(template.summary).not.toContain("\n");
  });

  it("creates a workflow from a template, with the template's spec and stored layout as revision 1", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const created = await api.templates.create({ slug: "selector-loop", name: "My loop" });
    expect(created.workflow.name).toBe("My loop");
    expect(created.head?.number).toBe(1);
    expect((created.head?.spec as { nodes: unknown[] }).nodes).toHaveLength((EXAMPLE_SPECS["selector-loop"] as { nodes: unknown[] }).nodes.length);
    expect(created.head?.layout).toEqual(EXAMPLE_LAYOUTS["selector-loop"]);
  });

  it("refuses an unknown template, naming the ones that exist, and writes nothing", async () => {
    const { database } = await open();
    const before = await rowCounts(database);
    const data = await expectApiError(callerFor(database).templates.create({ slug: "nope" }), "NOT_FOUND");
    expect(data.message).toContain("hello-agent");
    expect(await rowCounts(database)).toEqual(before);
  });

  it("runs on the provider chosen: the demo by default, a configured one with its model; an unconfigured one (or one without a model) is refused by name and nothing is written", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const settingsOf = (head: { spec: unknown } | null) => (head?.spec as { settings: Record<string, unknown> }).settings;
    const plain = await api.templates.create({ slug: "hello-agent" });
    expect(settingsOf(plain.head)).toMatchObject({ defaultProvider: "scripted", defaultModel: "scripted-1" });

    await api.settings.providers.upsert({ name: "local-llm", kind: "openai", baseUrl: "http://127.0.0.1:11434/v1", model: "llama3.2" });
    const local = await api.templates.create({ slug: "hello-agent", provider: "local-llm" });
    expect(settingsOf(local.head)).toMatchObject({ defaultProvider: "local-llm", defaultModel: "llama3.2", maxSteps: 20 });
    await api.settings.providers.upsert({ name: "no-model", kind: "anthropic", apiKey: "sk-test" });
    expect(settingsOf((await api.templates.create({ slug: "hello-agent", provider: "scripted" })).head)).toMatchObject({ defaultProvider: "scripted", defaultModel: "scripted-1" });

    const before = await rowCounts(database);
    const data = await expectApiError(api.templates.create({ slug: "hello-agent", provider: "nowhere" }), "BAD_REQUEST");
    expect(data.code).toBe("invalid_config");
    expect(data.message).toBe("provider 'nowhere' is not configured: add it in Settings → Providers, or pick the scripted demo provider");
    const modelless = await expectApiError(api.templates.create({ slug: "hello-agent", provider: "no-model" }), "BAD_REQUEST");
    expect(modelless.message).toBe("provider 'no-model' has no model: set its model in Settings → Providers, or pick another provider");
    expect(await rowCounts(database)).toEqual(before);
  });

  it("duplicates a workflow: a new workflow with the same head spec and layout, named '(copy)'", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const original = await api.workflows.create({ name: "Hello", description: "d", spec: exampleSpec("hello-agent") });
    await api.workflows.saveRevision({ workflowId: original.workflow.id, spec: exampleSpec("hello-agent"), layout: { nodes: { input: { x: 5, y: 6 } } } });
    const copy = await api.workflows.duplicate({ workflowId: original.workflow.id });
    expect(copy.workflow.id).not.toBe(original.workflow.id);
    expect(copy.workflow.name).toBe("Hello (copy)");
    expect(copy.workflow.description).toBe("d");
    expect(copy.head?.number).toBe(1);
    expect(copy.head?.spec).toEqual((await api.workflows.get({ workflowId: original.workflow.id })).head?.spec);
    expect(copy.head?.layout).toEqual({ nodes: { input: { x: 5, y: 6 } } });
    const named = await api.workflows.duplicate({ workflowId: original.workflow.id, name: "Other" });
    expect(named.workflow.name).toBe("Other");
    await expectApiError(api.workflows.duplicate({ workflowId: "wf_missing" }), "NOT_FOUND");
  });
});
