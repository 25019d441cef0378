import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isRathError } from "../errors";
import { ToolFailure } from "../tools/types";
import { McpConnectionPool } from "./connection-pool";
import { loadMcpTools, type McpTool } from "./load-tools";
import { everythingStdioConfig, toolContextFor } from "./test-servers";

/** The real server-everything over stdio: listing, calling, results, errors and validation. */
describe("MCP tools from server-everything over stdio", () => {
  const pool = new McpConnectionPool();
  const secret = "s3cr3t-value-for-everything";
  let tools: McpTool[] = [];

  const tool = (name: string): McpTool => {
    const found = tools.find((candidate) => candidate.name === name);
    if (found === undefined) throw new Error(`no tool ${name} in ${tools.map((candidate) => candidate.name).join(", ")}`);
    return found;
  };

  beforeAll(async () => {
    tools = await loadMcpTools(everythingStdioConfig({ env: { EVERYTHING_TEST_SECRET: secret } }), pool);
  });

  afterAll(async () => {
    await pool.closeAll();
  });

  it("lists the server's tools with their input schemas", () => {
    const names = tools.map((candidate) => candidate.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "get-structured-content", "get-tiny-image", "get-env"]));
    expect(tool("get-sum").jsonSchema).toMatchObject({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
    expect(tool("get-sum").jsonSchema).not.toHaveProperty("$schema");
    expect(tool("echo").description).toBe("Echoes back the input string");
  });

  it("derives idempotence from the server's annotations and is not parallel-safe by default", () => {
    expect(tool("echo").idempotent).toBe(true);
    expect(tool("toggle-simulated-logging").idempotent).toBe(false);
    expect(tool("echo").parallelSafe).toBe(false);
    expect(tool("echo").resourceKey({ message: "x" })).toBe("mcp:everything");
    expect(tool("echo").server).toBe("everything");
    expect(tool("echo").remoteName).toBe("echo");
  });

  it("calls echo and get-sum", async () => {
    await expect(tool("echo").execute({ message: "hello" }, toolContextFor())).resolves.toEqual({ text: "Echo: hello" });
    await expect(tool("get-sum").execute({ a: 2, b: 40 }, toolContextFor())).resolves.toEqual({ text: "The sum of 2 and 40 is 42." });
  });

  it("keeps structured content and summarises an image", async () => {
    const weather = await tool("get-structured-content").execute({ location: "Chicago" }, toolContextFor());
    expect(weather.structured_content).toEqual({ temperature: 36, conditions: "Light rain / drizzle", humidity: 82 });
    const image = await tool("get-tiny-image").execute({}, toolContextFor());
    expect(image.other_content?.[0]).toMatchObject({ type: "image", mime_type: "image/png" });
    expect(image.other_content?.[0]?.size_bytes).toBeGreaterThan(100);
  });

  it("passes the configured env to the child", async () => {
    const result = await tool("get-env").execute({}, toolContextFor());
    expect(JSON.parse(result.text)).toMatchObject({ EVERYTHING_TEST_SECRET: secret });
  });

  it("rejects bad arguments with its parameters schema before any call", () => {
    const parsed = tool("get-sum").parameters.safeParse({ a: "two" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path[0]).sort()).toEqual(["a", "b"]);
    expect(tool("get-structured-content").parameters.safeParse({ location: "Paris" }).success).toBe(false);
  });

  it("turns a server-side isError result into a ToolFailure with the server's text", async () => {
    // Skips local validation on purpose: the server validates too and answers with isError.
    const failure = await tool("get-sum").execute({ a: "two" }, toolContextFor()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolFailure);
    expect((failure as ToolFailure).kind).toBe("tool_execution_exception");
    expect((failure as ToolFailure).message).toContain("Invalid arguments for tool get-sum");
    expect((failure as ToolFailure).detail).toEqual({ server: "everything", tool: "get-sum" });
  });

  it("stops waiting for a call when the run's signal aborts, and keeps the connection usable", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = tool("trigger-long-running-operation").execute({ duration: 10, steps: 5 }, { ...toolContextFor(), signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const error = await pending.catch((caught: unknown) => caught);
    expect(isRathError(error, "aborted")).toBe(true);
    expect((error as Error).message).toContain("MCP server 'everything'");
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(tool("echo").execute({ message: "still here" }, toolContextFor())).resolves.toEqual({ text: "Echo: still here" });
  });

  it("prefixes names with the server when asked, and keeps calling the server's own name", async () => {
    const prefixed = await loadMcpTools(everythingStdioConfig({ env: { EVERYTHING_TEST_SECRET: secret } }), pool, {
      prefix: true,
      include: ["echo", "get-sum"],
    });
    expect(prefixed.map((candidate) => candidate.name)).toEqual(["everything__echo", "everything__get-sum"]);
    await expect(prefixed[0]?.execute({ message: "p" }, toolContextFor())).resolves.toEqual({ text: "Echo: p" });
    expect(pool.stats().connectionsOpened).toBe(1);
  });

  it("says which tools exist when `include` names one the server lacks", async () => {
    const error = await loadMcpTools(everythingStdioConfig({ env: { EVERYTHING_TEST_SECRET: secret } }), pool, { include: ["ech0"] }).catch((caught: unknown) => caught);
    expect(isRathError(error, "invalid_config")).toBe(true);
    expect((error as Error).message).toMatch(/expected MCP server 'everything' to offer 'ech0'; it offers: echo, /);
  });
});
