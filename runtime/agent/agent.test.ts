import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isRathError } from "../errors";
import { LocalMemoryStore } from "../memory/local-memory-store";
import type { ChatMessage } from "../providers/types";
import type { ChunkOf } from "../session/chunk";
import { extra } from "../session/lineage";
import { Session } from "../session/session";
import { createScriptedProvider, makeUsage } from "../testing/scripted-provider";
import { defineTool } from "../tools/define-tool";
import { Agent, DEFAULT_MAX_ROUNDS, TOOL_EFFECTS_RESOURCE } from "./agent";
import { recordingContext } from "./test-helpers";

const add = defineTool({
  name: "add",
  description: "Add two numbers.",
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => ({ sum: a + b }),
});

function kinds(session: Session): string[] {
  return session.chunks.toArray().map((chunk) => chunk.kind);
}

describe("Agent.forward", () => {
  it("loops model -> tools -> model and derives an op_session_loop session with parents [input, agent]", async () => {
    const provider = createScriptedProvider({
      steps: [
        { toolCalls: [{ id: "c1", name: "add", arguments: { a: 2, b: 3 } }], usage: makeUsage(10, 5) },
        { content: "The sum is 5.", usage: makeUsage(20, 4) },
      ],
    });
    const agent = new Agent({ name: "calc", instructions: "Use tools.", provider, tools: [add] });
    const input = Session.create("user", "2+3?");
    const context = recordingContext();
    const out = await agent.forward(input, context);

    expect(out.lineage.parent_session_ids).toEqual([input.id, agent.id]);
    expect(out.lineage.lineage_kind).toBe("op_session_loop");
    expect(out.lineage.lineage_operator).toBe("run_session_loop");
    expect(extra(out.lineage, "loop.truncated")).toBeUndefined();
    expect(kinds(out)).toEqual(["user", "assistant", "tool_result", "assistant"]);
    expect(out.chunks.at(0)).toBe(input.chunks.at(0));
    expect(input.chunks.length).toBe(1);
    const result = out.chunks.at(2) as ChunkOf<"tool_result">;
    expect(result.payload.tool_call_id).toBe("c1");
    expect(JSON.parse(result.payload.content)).toEqual({ sum: 5 });
    const final = out.chunks.at(3) as ChunkOf<"assistant">;
    expect(final.payload).toEqual({ content: "The sum is 5.", tool_calls: null });
    expect(final.meta).toMatchObject({ producer: "calc", model: "scripted", usage: makeUsage(20, 4), latency_ms: 0 });
    // Usage of the output is what this loop spent (the reference's cumulative_usage of a loop output).
    expect(out.usage).toEqual(makeUsage(30, 9));

    const [first, second] = provider.requests;
    expect(first?.messages).toEqual([
      { role: "system", content: "Use tools." },
      { role: "user", content: "2+3?" },
    ]);
    expect(first?.tools?.map((tool) => tool.name)).toEqual(["add"]);
    expect(second?.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);

    const types = context.events.map((event) => event.type);
    expect(types[0]).toBe("agent.started");
    expect(types.at(-1)).toBe("agent.ended");
    expect(types.filter((type) => type === "model.request.started")).toHaveLength(2);
    expect(context.events.filter((event) => event.type === "model.delta").map((event) => (event.type === "model.delta" ? event.text : "")).join("")).toBe("The sum is 5.");
    const appended = context.events.filter((event) => event.type === "chunk.appended");
    expect(appended.map((event) => (event.type === "chunk.appended" ? [event.session_id, event.index] : null))).toEqual([
      [out.id, 1],
      [out.id, 2],
      [out.id, 3],
    ]);
    const created = context.events.filter((event) => event.type === "session.created").map((event) => (event.type === "session.created" ? event.session_id : ""));
    expect(created).toEqual([agent.id, out.id]);
    expect(context.events.at(-1)).toEqual({ type: "agent.ended", agent: "calc", session_id: out.id, rounds: 2, truncated: false });
  });

  it("hands the model one conversation array that only grows (a round does not copy the conversation)", async () => {
    const seen: (readonly ChatMessage[])[] = [];
    const lengths: number[] = [];
    const provider = createScriptedProvider({
      steps: (request, index) => {
        seen.push(request.messages);
        lengths.push(request.messages.length);
        return index < 3 ? { toolCalls: [{ name: "add", arguments: { a: index, b: 1 } }] } : { content: "done" };
      },
    });
    const agent = new Agent({ name: "calc", instructions: "Use tools.", provider, tools: [add] });
    await agent.forward(Session.create("user", "count"));
    expect(lengths).toEqual([2, 4, 6, 8]);
    expect(new Set(seen).size).toBe(1);
    // What each call saw is still what the scripted provider reports for it.
    expect(provider.requests.map((request) => request.messages.length)).toEqual([2, 4, 6, 8]);
    expect(provider.requests[1]?.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
  });

  it("writes chunk metadata, tool evidence and tool events with their keys in one fixed order (files and streams read the same)", async () => {
    const provider = createScriptedProvider({
      steps: [
        {
          toolCalls: [
            { id: "c1", name: "add", arguments: { a: 1, b: 2 } },
            { id: "c2", name: "add", arguments: { a: "one" } },
          ],
          usage: makeUsage(3, 1),
        },
        { content: "done" },
      ],
    });
    const context = recordingContext();
    const out = await new Agent({ name: "calc", provider, tools: [add] }).forward(Session.create("user", "go"), context);
    const [, call, ok, refused, answer] = out.chunks.toArray();
    expect(Object.keys(call?.meta ?? {})).toEqual(["at", "producer", "model", "latency_ms", "usage"]);
    expect(Object.keys(answer?.meta ?? {})).toEqual(["at", "producer", "model", "latency_ms"]);
    expect(Object.keys(ok?.meta ?? {})).toEqual(["at", "producer", "evidence"]);
    expect(Object.keys(ok?.meta.evidence ?? {})).toEqual(["args", "ok", "duration_ms", "sandbox", "resource_key"]);
    expect(Object.keys(refused?.meta.evidence ?? {})).toEqual(["args", "ok", "error_kind", "duration_ms", "sandbox", "resource_key"]);
    expect(refused?.meta.evidence).toMatchObject({ ok: false, error_kind: "invalid_tool_arguments", sandbox: { backend: "local", working_dir: null, handle_id: null } });
    const ended = context.events.filter((event) => event.type === "tool.call.ended");
    expect(ended.map((event) => Object.keys(event))).toEqual([
      ["type", "tool", "call_id", "ok", "duration_ms"],
      ["type", "tool", "call_id", "ok", "error_kind", "duration_ms"],
    ]);
  });

  it("ends at the round limit with loop.truncated = true", async () => {
    const provider = createScriptedProvider({ steps: () => ({ toolCalls: [{ name: "add", arguments: { a: 1, b: 1 } }] }) });
    const agent = new Agent({ name: "looper", provider, tools: [add], maxRounds: 2 });
    const context = recordingContext();
    const out = await agent.forward(Session.create("user", "go"), context);
    expect(provider.requests).toHaveLength(2);
    expect(extra(out.lineage, "loop.truncated")).toBe(true);
    expect(kinds(out)).toEqual(["user", "assistant", "tool_result", "assistant", "tool_result"]);
    expect(context.events.at(-1)).toMatchObject({ type: "agent.ended", rounds: 2, truncated: true });
  });

  it("has a default round limit of 64, after which the loop is truncated", async () => {
    const provider = createScriptedProvider({ steps: () => ({ toolCalls: [{ name: "add", arguments: { a: 1, b: 1 } }] }) });
    const agent = new Agent({ name: "looper", provider, tools: [add] });
    expect(DEFAULT_MAX_ROUNDS).toBe(64);
    expect(agent.maxRounds).toBe(64);
    const out = await agent.forward(Session.create("user", "go"));
    expect(provider.requests).toHaveLength(64);
    expect(extra(out.lineage, "loop.truncated")).toBe(true);
    expect(out.chunks.length).toBe(1 + 64 * 2);
  });

  it.each(["stop", "length", "content_filter"] as const)("stops when the model answers without tool calls (finish %s), appending the answer whole", async (finishReason) => {
    const provider = createScriptedProvider({ steps: [{ content: "A complete answer, streamed in pieces.", finishReason }, { content: "never" }] });
    const context = recordingContext();
    const out = await new Agent({ name: "a", provider, tools: [add] }).forward(Session.create("user", "x"), context);
    expect(provider.requests).toHaveLength(1);
    expect(kinds(out)).toEqual(["user", "assistant"]);
    expect(out.chunks.at(1)?.payload).toEqual({ content: "A complete answer, streamed in pieces.", tool_calls: null });
    expect(extra(out.lineage, "loop.truncated")).toBeUndefined();
    const deltas = context.events.flatMap((event) => (event.type === "model.delta" ? [event.text] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("A complete answer, streamed in pieces.");
    expect(context.events.filter((event) => event.type === "chunk.appended")).toHaveLength(1);
    expect(context.events).toContainEqual(expect.objectContaining({ type: "model.response.completed", finish_reason: finishReason }));
  });

  it("keeps going after tool errors (bad arguments, unknown tool)", async () => {
    const provider = createScriptedProvider({
      steps: [
        { toolCalls: [{ name: "add", arguments: { a: "two" } }, { name: "nope", arguments: {} }, { name: "add", arguments: "{not json" }] },
        { content: "Sorry, I could not add." },
      ],
    });
    const out = await new Agent({ name: "calc", provider, tools: [add] }).forward(Session.create("user", "x"));
    expect(kinds(out)).toEqual(["user", "assistant", "tool_result", "tool_result", "tool_result", "assistant"]);
    const results = out.chunks.slice(2, 5) as ChunkOf<"tool_result">[];
    expect(results.map((chunk) => JSON.parse(chunk.payload.content))).toMatchObject([
      { ok: false, error_kind: "invalid_tool_arguments" },
      { ok: false, error_kind: "unknown_tool" },
      { ok: false, error_kind: "invalid_tool_arguments" },
    ]);
    expect(results.map((chunk) => chunk.meta.evidence?.ok)).toEqual([false, false, false]);
    expect(provider.requests).toHaveLength(2);
  });

  it("fires the token budget once, at the first crossing, and continues when told to", async () => {
    const calls: number[] = [];
    const provider = createScriptedProvider({
      steps: [
        { toolCalls: [{ name: "add", arguments: { a: 1, b: 1 } }], usage: makeUsage(8, 2) },
        { toolCalls: [{ name: "add", arguments: { a: 1, b: 1 } }], usage: makeUsage(8, 2) },
        { content: "done", usage: makeUsage(8, 2) },
      ],
    });
    const context = recordingContext();
    const agent = new Agent({
      name: "spender",
      provider,
      tools: [add],
      tokenBudget: { limit: 15, onExceeded: (info) => (calls.push(info.used), "continue") },
    });
    const out = await agent.forward(Session.create("user", "x"), context);
    expect(calls).toEqual([20]);
    expect(context.events.filter((event) => event.type === "budget.exceeded")).toEqual([{ type: "budget.exceeded", limit: 15, used: 20 }]);
    expect(out.usage?.total_tokens).toBe(30);
  });

  it("aborts with budget_exceeded (the default without a callback)", async () => {
    const provider = createScriptedProvider({ steps: [{ toolCalls: [{ name: "add", arguments: { a: 1, b: 1 } }], usage: makeUsage(50, 50) }, { content: "never" }] });
    const agent = new Agent({ name: "spender", provider, tools: [add], tokenBudget: { limit: 99 } });
    await expect(agent.forward(Session.create("user", "x"))).rejects.toSatisfy(
      (error) => isRathError(error, "budget_exceeded") && error.details?.used === 100 && error.details?.limit === 99,
    );
    expect(provider.requests).toHaveLength(1);
  });

  it("aborts the run when the budget callback says abort, calling it once", async () => {
    const seen: number[] = [];
    const provider = createScriptedProvider({ steps: [{ toolCalls: [{ name: "add", arguments: { a: 1, b: 1 } }], usage: makeUsage(6, 6) }, { content: "never" }] });
    const agent = new Agent({ name: "spender", provider, tools: [add], tokenBudget: { limit: 10, onExceeded: (info) => (seen.push(info.used), "abort") } });
    await expect(agent.forward(Session.create("user", "x"))).rejects.toSatisfy((error) => isRathError(error, "budget_exceeded"));
    expect(seen).toEqual([12]);
    expect(provider.requests).toHaveLength(1);
  });

  it("stops when the context's signal aborts", async () => {
    const controller = new AbortController();
    const provider = createScriptedProvider({
      steps: [
        () => {
          controller.abort();
          return { toolCalls: [{ name: "add", arguments: { a: 1, b: 1 } }] };
        },
        { content: "never" },
      ],
    });
    const agent = new Agent({ name: "a", provider, tools: [add] });
    await expect(agent.forward(Session.create("user", "x"), recordingContext({ signal: controller.signal }))).rejects.toSatisfy((error) =>
      isRathError(error, "aborted"),
    );
    expect(provider.requests).toHaveLength(1);
  });

  it("recalls memory onto a fork before the loop and commits after", async () => {
    const store = new LocalMemoryStore({ name: "notes" });
    await store.remember("memory://user/preferences/tea", "The user prefers green tea.");
    await store.remember("memory://user/preferences/city", "The user lives in Porto.");
    const provider = createScriptedProvider({ steps: [{ content: "Green tea it is." }] });
    const agent = new Agent({ name: "barista", provider, memory: { store, recall: { k: 3 }, commit: true } });
    const input = Session.create("user", "Which tea should I drink?");
    const context = recordingContext();
    const out = await agent.forward(input, context);

    expect(kinds(out)).toEqual(["user", "memory", "assistant", "memory"]);
    const recall = out.chunks.at(1) as ChunkOf<"memory">;
    expect(recall.payload).toMatchObject({ op: "recall", store: "notes", query: "Which tea should I drink?" });
    expect(recall.payload.hits?.map((hit) => hit.uri)).toEqual(["memory://user/preferences/tea"]);
    expect(provider.requests[0]?.messages).toEqual([
      { role: "user", content: "Which tea should I drink?" },
      { role: "system", content: "[memory:memory://user/preferences/tea] The user prefers green tea." },
    ]);
    const commit = out.chunks.at(3) as ChunkOf<"memory">;
    expect(commit.payload).toEqual({ op: "commit", store: "notes", count: 2 });
    expect(store.size).toBe(4);

    // The recall happened on a fork of the input; the loop output descends from that fork.
    const forkId = out.lineage.parent_session_ids[0];
    expect(forkId).not.toBe(input.id);
    expect(out.lineage.parent_session_ids[1]).toBe(agent.id);
    const forkCreated = context.events.find((event) => event.type === "session.created" && event.session_id === forkId);
    expect(forkCreated).toMatchObject({ lineage: { parent_session_ids: [input.id], lineage_kind: "op_fork" }, chunk_count: 1 });
    expect(context.events.filter((event) => event.type.startsWith("memory."))).toEqual([
      { type: "memory.recalled", store: "notes", query: "Which tea should I drink?", hits: 1 },
      { type: "memory.committed", store: "notes", count: 2 },
    ]);
  });

  it("remembers its answer at the policy's URI (replacing it), before a commit that then skips the same text", async () => {
    const store = new LocalMemoryStore({ name: "notes" });
    const provider = createScriptedProvider({ steps: [{ content: "Teal." }, { content: "Still teal." }] });
    const agent = new Agent({ name: "keeper", provider, memory: { store, recall: false, commit: true, remember: { uri: "memory://agent/keeper/last" } } });
    const context = recordingContext();
    const out = await agent.forward(Session.create("user", "Favourite colour?"), context);
    expect(kinds(out)).toEqual(["user", "assistant", "memory", "memory"]);
    expect((out.chunks.at(2) as ChunkOf<"memory">).payload).toEqual({ op: "remember", store: "notes", uri: "memory://agent/keeper/last", count: 1 });
    expect((out.chunks.at(3) as ChunkOf<"memory">).payload).toEqual({ op: "commit", store: "notes", count: 1 });
    await agent.forward(Session.create("user", "Again?"), context);
    expect(store.read("memory://agent/keeper/last")).toBe("Still teal.");
    expect(context.events.filter((event) => event.type.startsWith("memory.")).map((event) => event.type)).toEqual([
      "memory.remembered",
      "memory.committed",
      "memory.remembered",
      "memory.committed",
    ]);
    expect(() => new Agent({ name: "bad", provider, memory: { store, remember: { uri: "memory://agent/../x" } } })).toThrow(/forbidden path segment/);
  });

  it("binds the sandbox lazily when a built-in tool is called", async () => {
    const workingDir = mkdtempSync(join(tmpdir(), "rath-agent-"));
    const provider = createScriptedProvider({ steps: [{ toolCalls: [{ name: "workspace_path_exists", arguments: { path: "." } }] }, { content: "yes" }] });
    const agent = new Agent({ name: "fs", provider, builtins: ["workspace_path_exists"] });
    const input = Session.create("user", "exists?").to("local", { workingDir });
    const out = await agent.forward(input, recordingContext());
    expect(input.handle).toBeNull();
    expect(out.handle?.workingDir).toBe(workingDir);
    const result = out.chunks.at(2) as ChunkOf<"tool_result">;
    expect(JSON.parse(result.payload.content)).toEqual({ ok: true });
    expect(result.meta.evidence?.sandbox?.handle_id).toBe(out.handle?.id);
    await out.release();
    expect(out.handle?.closed).toBe(true);
  });

  it("does not bind a sandbox for tools that need none", async () => {
    const provider = createScriptedProvider({ steps: [{ toolCalls: [{ name: "add", arguments: { a: 1, b: 2 } }] }, { content: "3" }] });
    const out = await new Agent({ name: "calc", provider, tools: [add] }).forward(Session.create("user", "x"));
    expect(out.handle).toBeNull();
  });

  it("announces its root session once per run and hands the run's effect hooks to dispatch", async () => {
    const executed: string[] = [];
    const tracked = defineTool({
      name: "tracked",
      description: "Side effect.",
      parameters: z.object({}),
      execute: () => (executed.push("ran"), { ok: true }),
    });
    const provider = createScriptedProvider({
      steps: [{ toolCalls: [{ id: "c1", name: "tracked", arguments: {} }] }, { content: "one" }, { content: "two" }],
    });
    const ledger: string[] = [];
    const context = recordingContext();
    context.resources?.set(TOOL_EFFECTS_RESOURCE, {
      prepare: async (call: { callId: string }) => (ledger.push(`prepare ${call.callId}`), { replayContent: "{\"replayed\":true}" }),
      dispatched: async () => void ledger.push("dispatched"),
      settled: async () => void ledger.push("settled"),
    });
    const agent = new Agent({ name: "a", instructions: "hi", provider, tools: [tracked] });
    const first = await agent.forward(Session.create("user", "x"), context);
    await agent.forward(Session.create("user", "y"), context);
    expect(executed).toEqual([]);
    expect(ledger).toEqual(["prepare c1"]);
    expect((first.chunks.at(2) as ChunkOf<"tool_result">).payload.content).toBe("{\"replayed\":true}");
    const rootAnnouncements = context.events.filter((event) => event.type === "session.created" && event.session_id === agent.id);
    expect(rootAnnouncements).toHaveLength(1);
  });

  it("clone makes a new agent with a new id", () => {
    const agent = new Agent({ name: "a", instructions: "one", provider: createScriptedProvider({ steps: [] }) });
    const copy = agent.clone({ instructions: "two" });
    expect(copy.id).not.toBe(agent.id);
    expect(copy.name).toBe("a");
    expect(copy.session.chunks.at(0)?.payload).toEqual({ content: "two" });
    expect(agent.session.chunks.at(0)?.payload).toEqual({ content: "one" });
    expect(new Agent({ name: "b", provider: createScriptedProvider({ steps: [] }) }).session.lineage.lineage_kind).toBe("unknown");
    expect(() => new Agent({ name: "c", provider: createScriptedProvider({ steps: [] }), maxRounds: 0 })).toThrow(/maxRounds/);
  });
});
