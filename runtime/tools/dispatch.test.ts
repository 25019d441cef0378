import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultContext } from "../context";
import { bindSandbox } from "../sandbox/bind";
import { Session } from "../session/session";
import { defineTool } from "./define-tool";
import { dispatchToolCalls, type DispatchOptions } from "./dispatch";
import type { EffectCall, EffectHooks } from "./effects";
import { ToolRegistry } from "./registry";
import { parseContent, recordingContext, toolCall } from "./test-support";
import { ToolFailure, type ToolContext } from "./types";

/** Records which calls were in flight together, to prove what ran concurrently. */
class Tracker {
  inFlight = 0;
  maxInFlight = 0;
  readonly log: string[] = [];

  async run(label: string, delayMs: number): Promise<string> {
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    this.log.push(`start ${label} (${this.inFlight} in flight)`);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    this.log.push(`end ${label}`);
    this.inFlight -= 1;
    return label;
  }
}

function trackedTools(tracker: Tracker) {
  const keyed = defineTool({
    name: "keyed",
    description: "Parallel-safe, serialised per key.",
    parameters: z.object({ label: z.string(), key: z.string(), delay: z.number().default(80) }),
    parallelSafe: true,
    resourceKey: ({ key }) => key,
    execute: ({ label, delay }) => tracker.run(label, delay),
  });
  const exclusive = defineTool({
    name: "exclusive",
    description: "Not parallel-safe.",
    parameters: z.object({ label: z.string() }),
    execute: ({ label }) => tracker.run(label, 40),
  });
  return [keyed, exclusive];
}

let session: Session;
beforeAll(async () => {
  session = await bindSandbox(Session.create("user", "dispatch"));
});
afterAll(async () => {
  await session.release();
});

function options(registry: ToolRegistry, extra: Partial<DispatchOptions> = {}): DispatchOptions {
  return { registry, session, run: defaultContext(), producer: "agent", ...extra };
}

describe("dispatchToolCalls: parallel dispatch", () => {
  it("runs parallel-safe calls with different keys concurrently, results in call order", async () => {
    const tracker = new Tracker();
    const registry = ToolRegistry.of(trackedTools(tracker));
    const calls = [
      toolCall("keyed", { label: "slow", key: "a", delay: 150 }),
      toolCall("keyed", { label: "medium", key: "b", delay: 80 }),
      toolCall("keyed", { label: "fast", key: "c", delay: 10 }),
    ];
    const chunks = await dispatchToolCalls(calls, options(registry));
    // Three calls in flight at once is the proof of concurrency (no wall-clock bound: CI machines are shared).
    expect(tracker.maxInFlight).toBe(3);
    expect(tracker.log.filter((entry) => entry.startsWith("end"))).toEqual(["end fast", "end medium", "end slow"]);
    expect(chunks.map((chunk) => chunk.payload.tool_call_id)).toEqual(calls.map((call) => call.id));
    expect(chunks.map((chunk) => chunk.payload.content)).toEqual(['"slow"', '"medium"', '"fast"']);
  });

  it("runs calls with the same key one after another, in call order", async () => {
    const tracker = new Tracker();
    const registry = ToolRegistry.of(trackedTools(tracker));
    const calls = ["first", "second", "third"].map((label, index) => toolCall("keyed", { label, key: "same", delay: 30 - index * 10 }));
    const started = performance.now();
    await dispatchToolCalls(calls, options(registry));
    expect(tracker.maxInFlight).toBe(1);
    expect(tracker.log).toEqual([
      "start first (1 in flight)",
      "end first",
      "start second (1 in flight)",
      "end second",
      "start third (1 in flight)",
      "end third",
    ]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });

  it("runs a tool that is not parallel-safe alone, after the calls before it", async () => {
    const tracker = new Tracker();
    const registry = ToolRegistry.of(trackedTools(tracker));
    const calls = [
      toolCall("keyed", { label: "a", key: "a", delay: 30 }),
      toolCall("keyed", { label: "b", key: "b", delay: 30 }),
      toolCall("exclusive", { label: "x" }),
      toolCall("keyed", { label: "c", key: "c", delay: 10 }),
    ];
    const chunks = await dispatchToolCalls(calls, options(registry));
    expect(tracker.log.indexOf("start x (1 in flight)")).toBeGreaterThan(tracker.log.indexOf("end a"));
    expect(tracker.log.indexOf("start x (1 in flight)")).toBeGreaterThan(tracker.log.indexOf("end b"));
    expect(tracker.log.indexOf("start c (1 in flight)")).toBeGreaterThan(tracker.log.indexOf("end x"));
    expect(chunks.map((chunk) => chunk.payload.content)).toEqual(['"a"', '"b"', '"x"', '"c"']);
  });

  it("returns nothing for no calls", async () => {
    await expect(dispatchToolCalls([], options(ToolRegistry.of([])))).resolves.toEqual([]);
  });
});

describe("dispatchToolCalls: results, evidence and events", () => {
  const add = defineTool({
    name: "add",
    description: "Adds.",
    parameters: z.object({ a: z.number(), b: z.number().default(1) }),
    parallelSafe: true,
    resourceKey: () => "math",
    execute: ({ a, b }) => ({ sum: a + b }),
  });

  it("builds tool_result chunks with evidence and emits started/ended events", async () => {
    const { run, events } = recordingContext();
    const call = toolCall("add", { a: 2 });
    const [chunk] = await dispatchToolCalls([call], options(ToolRegistry.of([add]), { run }));
    expect(chunk?.kind).toBe("tool_result");
    expect(chunk?.payload).toEqual({ tool_call_id: call.id, name: "add", content: '{"sum":3}' });
    expect(chunk?.meta.producer).toBe("add");
    expect(chunk?.meta.evidence).toMatchObject({
      args: { a: 2, b: 1 },
      ok: true,
      sandbox: { backend: "local", working_dir: session.handle?.workingDir, handle_id: session.handle?.id },
      resource_key: "math",
    });
    expect(chunk?.meta.evidence?.duration_ms).toBeGreaterThanOrEqual(0);
    expect(chunk?.meta.evidence).not.toHaveProperty("error_kind");
    expect(events.map((event) => event.type)).toEqual(["tool.call.started", "tool.call.ended"]);
    expect(events[0]).toEqual({ type: "tool.call.started", tool: "add", call_id: call.id, args: { a: 2, b: 1 } });
    expect(events[1]).toMatchObject({ type: "tool.call.ended", tool: "add", call_id: call.id, ok: true });
  });

  it("names the invalid field, with the zod issues in detail", async () => {
    const { run, events } = recordingContext();
    const [chunk] = await dispatchToolCalls([toolCall("add", { a: "two" })], options(ToolRegistry.of([add]), { run }));
    const content = parseContent(chunk!.payload.content);
    expect(content).toMatchObject({ ok: false, error_kind: "invalid_tool_arguments" });
    expect(content.message).toBe("invalid arguments for 'add': a: Invalid input: expected number, received string");
    expect(content.detail).toEqual([{ path: "a", code: "invalid_type", message: "Invalid input: expected number, received string" }]);
    expect(chunk?.meta.evidence).toMatchObject({ ok: false, error_kind: "invalid_tool_arguments", args: { a: "two" } });
    expect(events[1]).toMatchObject({ ok: false, error_kind: "invalid_tool_arguments" });
  });

  it("validates arguments before the call: a tool never sees arguments its schema refuses", async () => {
    const received: unknown[] = [];
    const strict = defineTool({
      name: "strict",
      description: "",
      parameters: z.object({ count: z.number().int().min(1) }),
      execute: (args) => (received.push(args), "ran"),
    });
    const chunks = await dispatchToolCalls(
      [toolCall("strict", { count: 0 }), toolCall("strict", { count: "3" }), toolCall("strict", {}), toolCall("strict", { count: 2 })],
      options(ToolRegistry.of([strict])),
    );
    expect(chunks.map((chunk) => parseContent(chunk.payload.content).error_kind ?? "ok")).toEqual([
      "invalid_tool_arguments",
      "invalid_tool_arguments",
      "invalid_tool_arguments",
      "ok",
    ]);
    expect(received).toEqual([{ count: 2 }]);
  });

  it("treats arguments that are not JSON as invalid arguments, keeping the raw string as evidence", async () => {
    const [chunk] = await dispatchToolCalls([toolCall("add", "{a: 1")], options(ToolRegistry.of([add])));
    const content = parseContent(chunk!.payload.content);
    expect(content.error_kind).toBe("invalid_tool_arguments");
    expect(content.message).toContain("not valid JSON");
    expect(chunk?.meta.evidence?.args).toBe("{a: 1");
  });

  it("treats empty arguments as an empty object", async () => {
    const ping = defineTool({ name: "ping", description: "", parameters: z.object({}), execute: () => "pong" });
    const [chunk] = await dispatchToolCalls([toolCall("ping", "")], options(ToolRegistry.of([ping])));
    expect(chunk?.payload.content).toBe('"pong"');
  });

  it("lists the available tools for an unknown one (only the allowed ones under a policy)", async () => {
    const registry = ToolRegistry.of([add], { builtins: ["read_workspace_file"] });
    const [plain] = await dispatchToolCalls([toolCall("serch", {})], options(registry));
    expect(parseContent(plain!.payload.content)).toMatchObject({
      ok: false,
      error_kind: "unknown_tool",
      message: "unknown tool 'serch'; available: read_workspace_file, add",
    });
    const [restricted] = await dispatchToolCalls([toolCall("serch", {})], options(registry, { policy: { allowedTools: ["add"] } }));
    expect(parseContent(restricted!.payload.content).message).toBe("unknown tool 'serch'; available: add");
  });

  it("turns a thrown error into tool_execution_exception and keeps a ToolFailure's kind", async () => {
    const broken = defineTool({
      name: "broken",
      description: "",
      parameters: z.object({ how: z.enum(["type", "failure"]) }),
      execute: ({ how }) => {
        if (how === "type") throw new TypeError("boom");
        throw new ToolFailure("file_not_found", "no such thing", { path: "x" });
      },
    });
    const chunks = await dispatchToolCalls([toolCall("broken", { how: "type" }), toolCall("broken", { how: "failure" })], options(ToolRegistry.of([broken])));
    expect(chunks.map((chunk) => parseContent(chunk.payload.content))).toEqual([
      { ok: false, error_kind: "tool_execution_exception", message: "TypeError: boom", detail: "TypeError" },
      { ok: false, error_kind: "file_not_found", message: "no such thing", detail: { path: "x" } },
    ]);
  });

  it("renders results JSON cannot hold as {repr, type}", async () => {
    const big = defineTool({ name: "big", description: "", parameters: z.object({}), execute: () => 10n });
    const [chunk] = await dispatchToolCalls([toolCall("big", {})], options(ToolRegistry.of([big])));
    expect(parseContent(chunk!.payload.content)).toEqual({ repr: "10", type: "bigint" });
  });

  it("gives tools the session, its sandbox, the call id and the policy", async () => {
    let seen: ToolContext | null = null;
    const probe = defineTool({
      name: "probe",
      description: "",
      parameters: z.object({}),
      execute: (_args, context) => {
        seen = context;
        return null;
      },
    });
    const call = toolCall("probe", {});
    const policy = { maxCalls: 5 };
    await dispatchToolCalls([call], options(ToolRegistry.of([probe]), { policy }));
    expect(seen).toMatchObject({ session, sandbox: session.handle, callId: call.id, policy });
  });

  it("does not start calls once the run is aborted", async () => {
    let ran = false;
    const tool = defineTool({ name: "t", description: "", parameters: z.object({}), execute: () => (ran = true) });
    const controller = new AbortController();
    controller.abort();
    const [chunk] = await dispatchToolCalls([toolCall("t", {})], options(ToolRegistry.of([tool]), { run: defaultContext({ signal: controller.signal }) }));
    expect(ran).toBe(false);
    expect(parseContent(chunk!.payload.content).error_kind).toBe("tool_execution_exception");
  });
});

describe("dispatchToolCalls: policy", () => {
  const registry = ToolRegistry.of([], { builtins: true });

  it("denies tools outside allowedTools", async () => {
    const [chunk] = await dispatchToolCalls([toolCall("run_shell_command", { cmd: "echo hi" })], options(registry, { policy: { allowedTools: ["read_workspace_file"] } }));
    expect(parseContent(chunk!.payload.content)).toMatchObject({
      error_kind: "tool_policy_denied",
      message: "tool 'run_shell_command' is not in the allowed tools (read_workspace_file)",
    });
  });

  it("denies commands by the allow and deny lists", async () => {
    const chunks = await dispatchToolCalls(
      [toolCall("run_shell_command", { cmd: "echo ok" }), toolCall("run_shell_command", { cmd: "ls; curl http://x" })],
      options(registry, { policy: { commandAllow: ["echo", "ls"] } }),
    );
    expect(parseContent(chunks[0]!.payload.content)).toMatchObject({ exit_code: 0, stdout: "ok\n" });
    expect(parseContent(chunks[1]!.payload.content)).toMatchObject({ error_kind: "tool_policy_denied", message: expect.stringContaining("'curl'") });
  });

  it("counts maxCalls across rounds through the caller's counter", async () => {
    const policy = { maxCalls: 3 };
    const callCounter = { count: 0 };
    const round = (count: number) =>
      dispatchToolCalls(
        Array.from({ length: count }, () => toolCall("workspace_path_exists", { path: "." })),
        options(registry, { policy, callCounter }),
      );
    const first = await round(2);
    const second = await round(2);
    const kinds = [...first, ...second].map((chunk) => parseContent(chunk.payload.content).error_kind ?? "ok");
    expect(kinds).toEqual(["ok", "ok", "ok", "tool_policy_denied"]);
    expect(callCounter.count).toBe(3);
    expect(parseContent(second[1]!.payload.content).message).toBe("the run reached its limit of 3 tool calls");
  });

  it("counts per dispatch when no counter is given", async () => {
    const policy = { maxCalls: 1 };
    for (let round = 0; round < 2; round += 1) {
      const [chunk] = await dispatchToolCalls([toolCall("workspace_path_exists", { path: "." })], options(registry, { policy }));
      expect(parseContent(chunk!.payload.content)).toEqual({ ok: true });
    }
  });
});

describe("dispatchToolCalls: sandbox state", () => {
  const registry = ToolRegistry.of([], { builtins: true });

  it("gives sandbox_closed once the session's handle is closed", async () => {
    const bound = await bindSandbox(Session.create("user", "x"));
    await bound.release();
    const [chunk] = await dispatchToolCalls([toolCall("read_workspace_file", { path: "a" })], { registry, session: bound, run: defaultContext(), producer: "agent" });
    expect(parseContent(chunk!.payload.content).error_kind).toBe("sandbox_closed");
  });

  it("gives sandbox_closed with a clear message for an unbound session", async () => {
    const unbound = Session.create("user", "x");
    const [chunk] = await dispatchToolCalls([toolCall("run_shell_command", { cmd: "true" })], { registry, session: unbound, run: defaultContext(), producer: "agent" });
    const content = parseContent(chunk!.payload.content);
    expect(content.error_kind).toBe("sandbox_closed");
    expect(content.message).toContain("bindSandbox(session)");
    expect(chunk?.meta.evidence?.sandbox).toEqual({ backend: "local", working_dir: null, handle_id: null });
  });
});

describe("dispatchToolCalls: effect hooks", () => {
  function recordingEffects(replay: Record<string, string> = {}): { hooks: EffectHooks; log: string[]; prepared: EffectCall[] } {
    const log: string[] = [];
    const prepared: EffectCall[] = [];
    return {
      log,
      prepared,
      hooks: {
        prepare: async (call) => {
          prepared.push(call);
          log.push(`prepare ${call.callId}`);
          return replay[call.callId] === undefined ? {} : { replayContent: replay[call.callId] };
        },
        dispatched: async (callId) => {
          log.push(`dispatched ${callId}`);
        },
        settled: async (callId, result) => {
          log.push(`settled ${callId} ${String(result.ok)} ${result.content}`);
        },
      },
    };
  }

  it("prepares, dispatches and settles each valid call around its execution", async () => {
    const executed: string[] = [];
    const tool = defineTool({
      name: "side_effect",
      description: "",
      parameters: z.object({ n: z.number() }),
      idempotent: true,
      execute: ({ n }) => {
        executed.push(`run ${n}`);
        return n;
      },
    });
    const { hooks, log, prepared } = recordingEffects();
    const call = toolCall("side_effect", { n: 7 });
    const invalid = toolCall("side_effect", { n: "x" });
    const chunks = await dispatchToolCalls([call, invalid], options(ToolRegistry.of([tool]), { effects: hooks }));
    expect(prepared).toEqual([{ callId: call.id, tool: "side_effect", args: { n: 7 }, idempotent: true }]);
    expect(log).toEqual([`prepare ${call.id}`, `dispatched ${call.id}`, `settled ${call.id} true 7`]);
    expect(executed).toEqual(["run 7"]);
    expect(chunks[0]?.meta.evidence).not.toHaveProperty("replayed");
  });

  it("replays recorded content without running the tool, and marks the evidence", async () => {
    let runs = 0;
    const tool = defineTool({ name: "charge", description: "", parameters: z.object({}), execute: () => ++runs });
    const ok = toolCall("charge", {});
    const failed = toolCall("charge", {});
    const recordedFailure = JSON.stringify({ ok: false, error_kind: "timeout", message: "slow" });
    const { hooks, log } = recordingEffects({ [ok.id]: '{"charged":true}', [failed.id]: recordedFailure });
    const chunks = await dispatchToolCalls([ok, failed], options(ToolRegistry.of([tool]), { effects: hooks }));
    expect(runs).toBe(0);
    expect(log).toEqual([`prepare ${ok.id}`, `prepare ${failed.id}`]);
    expect(chunks.map((chunk) => chunk.payload.content)).toEqual(['{"charged":true}', recordedFailure]);
    expect(chunks[0]?.meta.evidence).toMatchObject({ ok: true, replayed: true });
    expect(chunks[1]?.meta.evidence).toMatchObject({ ok: false, error_kind: "timeout", replayed: true });
  });

  it("settles failures with ok false", async () => {
    const tool = defineTool({ name: "fails", description: "", parameters: z.object({}), execute: () => Promise.reject(new Error("no")) });
    const { hooks, log } = recordingEffects();
    const call = toolCall("fails", {});
    await dispatchToolCalls([call], options(ToolRegistry.of([tool]), { effects: hooks }));
    expect(log[2]).toBe(`settled ${call.id} false {"ok":false,"error_kind":"tool_execution_exception","message":"Error: no","detail":"Error"}`);
  });

  it("rejects when an effect hook fails (the ledger's failure is the run's)", async () => {
    const tool = defineTool({ name: "t", description: "", parameters: z.object({}), execute: () => 1 });
    const hooks: EffectHooks = {
      prepare: () => Promise.reject(new Error("ledger down")),
      dispatched: async () => {},
      settled: async () => {},
    };
    await expect(dispatchToolCalls([toolCall("t", {})], options(ToolRegistry.of([tool]), { effects: hooks }))).rejects.toThrow("ledger down");
  });
});
