import { describe, expect, it } from "vitest";
import type { ChunkOf } from "../session/chunk";
import { Session } from "../session/session";
import { createScriptedProvider } from "../testing/scripted-provider";
import { Selector, parseSelectorReply } from "./selector";
import { recordingContext } from "./test-helpers";
import { Workflow, type Component } from "./workflow";

function appender(name: string): Component {
  return { name, forward: async (session) => session.append({ kind: "user", payload: { content: `ran ${name}` }, meta: { at: "t" } }) };
}

const candidates = [
  { name: "research", description: "look things up", workflow: appender("research") },
  { name: "write", description: "write the answer", workflow: appender("write") },
];

describe("parseSelectorReply", () => {
  it.each([
    [" 1", 2, 1],
    ["choose 2 please", 3, 2],
    ["0", 2, 0],
    ["-1", 2, -1],
    ["7", 2, -1],
    ["none", 2, -1],
    ["", 2, -1],
    ["index: 1, not 0", 2, 1],
    ["0", 0, -1],
  ])("%j with %i candidates -> %i", (reply, count, expected) => {
    expect(parseSelectorReply(reply, count)).toBe(expected);
  });
});

describe("Selector", () => {
  it("sends one completion without tools listing `i: description`, and records a route chunk", async () => {
    const provider = createScriptedProvider({ steps: [{ content: "choose 1 please", usage: { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 } }] });
    const selector = new Selector({ name: "router", provider, instructions: "route well", candidates });
    const context = recordingContext();
    const input = Session.create("user", "write me a poem");
    const decision = await selector.decide(input, context);

    const request = provider.requests[0];
    expect(request?.tools).toBeUndefined();
    expect(request?.messages[0]).toEqual({ role: "system", content: "route well" });
    expect(request?.messages[1]).toEqual({ role: "user", content: "write me a poem" });
    expect(request?.messages[2]?.content).toBe("Candidate workflows:\n0: look things up\n1: write the answer\n\nReply with one index, or -1.");

    expect(decision.chosen).toBe(1);
    expect(decision.workflow).toBe(candidates[1]?.workflow);
    const route = decision.session.chunks.last() as ChunkOf<"route">;
    expect(route.kind).toBe("route");
    expect(route.payload).toEqual({
      selector: "router",
      candidates: [
        { index: 0, name: "research", description: "look things up" },
        { index: 1, name: "write", description: "write the answer" },
      ],
      chosen: 1,
      reply: "choose 1 please",
    });
    expect(route.meta.usage?.total_tokens).toBe(10);
    expect(decision.session.chunks.length).toBe(2);
    expect(decision.session.lineage.parent_session_ids).toEqual([input.id]);
    expect(decision.session.lineage.lineage_operator).toBe("select_session");
    expect(decision.session.usage?.total_tokens).toBe(10);
    expect(input.chunks.length).toBe(1);
    expect(context.events.find((event) => event.type === "route.decided")).toEqual({ type: "route.decided", selector: "router", chosen: 1, candidate: "write" });
  });

  it.each([["-1"], ["7"], ["none"]])("reply %j chooses the empty workflow", async (reply) => {
    const selector = new Selector({ name: "router", provider: createScriptedProvider({ steps: [{ content: reply }, { content: reply }] }), candidates });
    const decision = await selector.decide(Session.create("user", "x"));
    expect(decision.chosen).toBe(-1);
    expect(decision.workflow).toBe(Workflow.empty());
    const output = await selector.forward(Session.create("user", "x"), recordingContext());
    expect(output.chunks.length).toBe(2);
  });

  it("with no candidates, stops without calling the model but still records the decision", async () => {
    const provider = createScriptedProvider({ steps: [] });
    const selector = new Selector({ name: "router", provider, candidates: [] });
    const decision = await selector.decide(Session.create("user", "x"));
    expect(provider.requests).toHaveLength(0);
    expect(decision.chosen).toBe(-1);
    expect((decision.session.chunks.last() as ChunkOf<"route">).payload).toEqual({ selector: "router", candidates: [], chosen: -1, reply: "" });
  });

  it("forward runs the chosen workflow on the decided session", async () => {
    const selector = new Selector({ name: "router", provider: createScriptedProvider({ steps: [{ content: "0" }] }), candidates });
    const output = await selector.forward(Session.create("user", "x"));
    expect(output.chunks.toArray().map((chunk) => chunk.kind)).toEqual(["user", "route", "user"]);
    expect(output.chunks.last()?.payload).toEqual({ content: "ran research" });
  });
});
