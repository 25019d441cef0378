import { describe, expect, it } from "vitest";
import { isRathError } from "../errors";
import { makeChunk, type ChunkOf } from "../session/chunk";
import { SandboxHandle } from "../sandbox/handle";
import { validateAcyclic } from "../session/graph";
import { Session } from "../session/session";
import { createScriptedProvider } from "../testing/scripted-provider";
import { Selector } from "./selector";
import { recordingContext } from "./test-helpers";
import { loop, parallel, Workflow, type Component } from "./workflow";

function say(name: string, delayMs = 0): Component {
  return {
    name,
    forward: async (session) => {
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return session.fork().append(makeChunk("assistant", { content: name, tool_calls: null }));
    },
  };
}

class CountingHandle extends SandboxHandle {
  constructor() {
    super("local", "/tmp/rath-workflow-test");
  }
  protected async onClose(): Promise<void> {}
}

function texts(session: Session): string[] {
  return session.chunks.toArray().map((chunk) => (chunk.kind === "route" ? `route:${chunk.payload.chosen}` : String((chunk.payload as { content?: unknown }).content)));
}

describe("Workflow", () => {
  it("runs steps in order and reports each step", async () => {
    const context = recordingContext();
    const output = await new Workflow("pipeline", [say("a"), say("b")]).forward(Session.create("user", "go"), context);
    expect(texts(output)).toEqual(["go", "a", "b"]);
    expect(context.events.map((event) => event.type)).toEqual(["workflow.step.started", "workflow.step.ended", "workflow.step.started", "workflow.step.ended"]);
    expect(context.events[3]).toEqual({ type: "workflow.step.ended", workflow: "pipeline", step: "b", session_id: output.id });
  });

  it("empty() is the identity", async () => {
    const input = Session.create("user", "x");
    expect(await Workflow.empty().forward(input)).toBe(input);
    expect(Workflow.empty().isEmpty).toBe(true);
  });

  it("aborts between steps", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(new Workflow("w", [say("a")]).forward(Session.create("user", "x"), recordingContext({ signal: controller.signal }))).rejects.toSatisfy(
      (error) => isRathError(error, "aborted"),
    );
  });
});

describe("sandbox references", () => {
  it("a sequential workflow, a loop and a selector leave the handle with their input and output only", async () => {
    const handle = new CountingHandle();
    const input = Session.create("user", "q").withHandle(handle);
    const steps = await new Workflow("steps", [say("a"), say("b"), say("c")]).forward(input);
    expect(handle.refcount).toBe(2);
    const selector = new Selector({ name: "again?", provider: createScriptedProvider({ steps: () => ({ content: "0" }) }), candidates: [{ name: "more", description: "more", workflow: say("extra") }] });
    const looped = await loop("bounded", { body: say("draft"), selector, maxIterations: 3 }).forward(input);
    expect(handle.refcount).toBe(3);
    const routed = await selector.forward(input);
    expect(handle.refcount).toBe(4);
    const failing = new Workflow("fails", [say("a"), { name: "boom", forward: async () => Promise.reject(new Error("boom")) }]);
    await expect(failing.forward(input)).rejects.toThrow("boom");
    expect(handle.refcount).toBe(4);
    for (const session of [steps, looped, routed]) await session.release();
    expect(handle.closed).toBe(false);
    await input.release();
    expect(handle.closed).toBe(true);
  });
});

describe("parallel", () => {
  it("runs branches on forks concurrently and merges in branch order", async () => {
    const input = Session.create("user", "q");
    const context = recordingContext();
    const started = Date.now();
    const output = await parallel("fan", [say("slow", 60), say("fast", 5)]).forward(input, context);
    expect(Date.now() - started).toBeLessThan(1_000);
    // Session.merge concatenates self ++ other: each branch carries the shared input.
    expect(texts(output)).toEqual(["q", "slow", "q", "fast"]);
    expect(output.lineage.lineage_kind).toBe("op_merge");
    const forks = context.events.filter((event) => event.type === "session.created" && event.lineage.lineage_kind === "op_fork");
    expect(forks).toHaveLength(2);
    expect(forks.every((event) => event.type === "session.created" && event.lineage.parent_session_ids[0] === input.id)).toBe(true);
  });

  it("accepts a custom merge", async () => {
    const output = await parallel("fan", [say("a"), say("b")], { merge: (sessions) => sessions[1] as Session }).forward(Session.create("user", "q"));
    expect(texts(output)).toEqual(["q", "b"]);
  });

  it("leaves the sandbox handle with the input and the result only, so it closes when both release it", async () => {
    const handle = new CountingHandle();
    const input = Session.create("user", "q").withHandle(handle);
    const context = recordingContext();
    const same: Component = { name: "same", forward: async (session) => session.append(makeChunk("user", { content: "c" })) };
    const merged = await parallel("fan", [same, same, same]).forward(input, context);
    expect(merged.handle).toBe(handle);
    // Every merge (the partial one of three branches too) is announced, so the graph has no missing parent.
    const announced = context.events.flatMap((event) => (event.type === "session.created" ? [{ id: event.session_id, parent_session_ids: event.lineage.parent_session_ids }] : []));
    expect(() => validateAcyclic([{ id: input.id, parent_session_ids: [] }, ...announced])).not.toThrow();
    expect(announced.at(-1)?.id).toBe(merged.id);
    expect(handle.refcount).toBe(2);
    const picked = await parallel("pick", [say("a"), say("b")], { merge: (sessions) => sessions[1] as Session }).forward(input);
    expect(handle.refcount).toBe(3);
    await Promise.all([merged.release(), picked.release()]);
    expect(handle.closed).toBe(false);
    await input.release();
    expect(handle.closed).toBe(true);
  });

  it("refuses no branches", () => {
    expect(() => parallel("none", [])).toThrow(/at least one branch/);
  });
});

describe("loop", () => {
  it("repeats body until the selector says -1, with each decision in the session", async () => {
    const provider = createScriptedProvider({ steps: [{ content: "0" }, { content: "0" }, { content: "-1" }] });
    const selector = new Selector({ name: "again?", provider, candidates: [{ name: "continue", description: "keep going", workflow: Workflow.empty() }] });
    const output = await loop("refine", { body: say("draft"), selector, maxIterations: 10 }).forward(Session.create("user", "x"));
    expect(texts(output)).toEqual(["x", "draft", "route:0", "draft", "route:0", "draft", "route:-1"]);
    expect(provider.requests).toHaveLength(3);
  });

  it("stops at maxIterations", async () => {
    const selector = new Selector({ name: "forever", provider: createScriptedProvider({ steps: () => ({ content: "0" }) }), candidates: [{ name: "more", description: "more", workflow: say("extra") }] });
    const output = await loop("bounded", { selector, maxIterations: 2 }).forward(Session.create("user", "x"));
    expect(texts(output)).toEqual(["x", "route:0", "extra", "route:0", "extra"]);
    expect((output.chunks.at(1) as ChunkOf<"route">).payload.selector).toBe("forever");
  });
});
