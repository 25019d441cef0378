import { afterAll, describe, expect, it } from "vitest";
import { defaultContext } from "../context";
import { EventBus, type RuntimeEvent } from "../events";
import type { ToolCall } from "../session/chunk";
import { Session } from "../session/session";
import { dispatchToolCalls } from "../tools/dispatch";
import { ToolRegistry } from "../tools/registry";
import { loadMcpToolsForRun } from "./load-tools";
import { closeMcpPoolFor, mcpPoolFor } from "./run-pool";
import { everythingStdioConfig } from "./test-servers";

const call = (id: string, name: string, args: unknown): ToolCall => ({
  id,
  type: "function",
  function: { name, arguments: JSON.stringify(args) },
});

/** MCP tools through the same dispatch as every other tool: validation, results, evidence, events. */
describe("dispatching MCP tool calls", () => {
  const bus = new EventBus();
  const events: RuntimeEvent[] = [];
  bus.on((event) => events.push(event));
  const run = defaultContext({ emit: bus.emit });

  afterAll(async () => {
    await closeMcpPoolFor(run);
  });

  it("returns ok tool_results with evidence, a validation refusal and a server error, in call order, over one connection", async () => {
    const tools = await loadMcpToolsForRun(everythingStdioConfig(), run, { prefix: true, include: ["echo", "get-sum", "get-resource-reference"] });
    const registry = ToolRegistry.of(tools);
    const session = Session.create("user", "add two numbers");
    const chunks = await dispatchToolCalls(
      [
        call("c1", "everything__get-sum", { a: 19, b: 23 }),
        call("c2", "everything__get-sum", { a: "nineteen" }),
        call("c3", "everything__echo", { message: "via dispatch" }),
        call("c4", "everything__get-resource-reference", { resourceType: "Text", resourceId: 0 }),
      ],
      { registry, session, run, producer: "agent" },
    );

    expect(chunks.map((chunk) => chunk.payload.tool_call_id)).toEqual(["c1", "c2", "c3", "c4"]);
    const [sum, invalid, echo, serverError] = chunks;

    expect(JSON.parse(sum?.payload.content ?? "")).toEqual({ text: "The sum of 19 and 23 is 42." });
    expect(sum?.meta?.evidence).toMatchObject({ args: { a: 19, b: 23 }, ok: true, resource_key: "mcp:everything" });
    expect(sum?.meta?.evidence?.duration_ms).toBeGreaterThan(0);
    expect(sum?.meta?.producer).toBe("everything__get-sum");

    expect(JSON.parse(invalid?.payload.content ?? "")).toMatchObject({ ok: false, error_kind: "invalid_tool_arguments" });
    expect(invalid?.meta?.evidence).toMatchObject({ ok: false, error_kind: "invalid_tool_arguments" });

    expect(JSON.parse(echo?.payload.content ?? "")).toEqual({ text: "Echo: via dispatch" });

    expect(JSON.parse(serverError?.payload.content ?? "")).toEqual({
      ok: false,
      error_kind: "tool_execution_exception",
      message: expect.stringContaining("Invalid resourceId: 0"),
      detail: { server: "everything", tool: "get-resource-reference" },
    });

    const ended = events.filter((event) => event.type === "tool.call.ended");
    expect(ended.map((event) => event.type === "tool.call.ended" && [event.call_id, event.ok])).toEqual([
      ["c1", true],
      ["c2", false],
      ["c3", true],
      ["c4", false],
    ]);
    expect(mcpPoolFor(run).stats().connectionsOpened).toBe(1);
  });

  it("gives parallel-safe MCP calls their own resource key and returns them in call order", async () => {
    const tools = await loadMcpToolsForRun(everythingStdioConfig(), run, { parallelSafe: true, include: ["echo"] });
    const chunks = await dispatchToolCalls(
      ["one", "two", "three"].map((message, index) => call(`p${index}`, "echo", { message })),
      { registry: ToolRegistry.of(tools), session: Session.create("user", "x"), run, producer: "agent" },
    );
    expect(chunks.map((chunk) => JSON.parse(chunk.payload.content))).toEqual([
      { text: "Echo: one" },
      { text: "Echo: two" },
      { text: "Echo: three" },
    ]);
    expect(chunks.every((chunk) => chunk.meta?.evidence?.resource_key === null)).toBe(true);
    expect(mcpPoolFor(run).stats().connectionsOpened).toBe(1);
  });
});
