import { z } from "zod";
import { describe, expect, it } from "vitest";
import { isRathError } from "../errors";
import { defineTool } from "./define-tool";

const search = defineTool({
  name: "search",
  description: "Search the notes.",
  parameters: z.object({ query: z.string().describe("What to look for"), limit: z.number().int().default(5) }),
  execute: ({ query, limit }) => ({ query, limit }),
});

function definitionError(run: () => unknown): string {
  try {
    run();
    return "no error";
  } catch (error) {
    return isRathError(error, "invalid_tool_definition") ? error.message : `other: ${String(error)}`;
  }
}

describe("defineTool", () => {
  it("derives a clean JSON schema for the model: no $schema, an object with properties and required", () => {
    expect(search.jsonSchema).toEqual({
      type: "object",
      properties: { query: { type: "string", description: "What to look for" }, limit: { type: "integer", default: 5, minimum: expect.any(Number), maximum: expect.any(Number) } },
      required: ["query"],
      additionalProperties: false,
    });
    expect(search.jsonSchema).not.toHaveProperty("$schema");
  });

  it("always gives properties and required, even for no arguments", () => {
    const ping = defineTool({ name: "ping", description: "", parameters: z.object({}), execute: () => "pong" });
    expect(ping.jsonSchema).toMatchObject({ type: "object", properties: {}, required: [] });
  });

  it("has safe defaults: not parallel-safe, its own resource key, not idempotent", async () => {
    expect([search.parallelSafe, search.idempotent, search.resourceKey({ query: "a", limit: 1 })]).toEqual([false, false, null]);
    await expect(search.execute({ query: "q", limit: 2 }, {} as never)).resolves.toEqual({ query: "q", limit: 2 });
  });

  it("keeps the declared scheduling options", () => {
    const tool = defineTool({
      name: "fetch-url_2",
      description: "d",
      parameters: z.object({ url: z.string() }),
      parallelSafe: true,
      idempotent: true,
      resourceKey: ({ url }) => `url:${url}`,
      execute: () => null,
    });
    expect([tool.parallelSafe, tool.idempotent, tool.resourceKey({ url: "x" })]).toEqual([true, true, "url:x"]);
  });

  it.each(["", "has space", "dot.name", "x".repeat(65), "ünïcode"])("refuses the name %j", (name) => {
    expect(definitionError(() => defineTool({ name, description: "", parameters: z.object({}), execute: () => null }))).toContain("invalid tool name");
  });

  it("accepts a 64-character name", () => {
    expect(definitionError(() => defineTool({ name: "x".repeat(64), description: "", parameters: z.object({}), execute: () => null }))).toBe("no error");
  });

  it("refuses parameters that are not an object schema", () => {
    expect(definitionError(() => defineTool({ name: "t", description: "", parameters: z.string(), execute: () => null }))).toContain(
      "parameters must be a zod object schema; found JSON schema type 'string'",
    );
    expect(definitionError(() => defineTool({ name: "t", description: "", parameters: {} as z.ZodObject, execute: () => null }))).toContain("must be a zod schema");
  });

  it("uses a given JSON schema instead of deriving one (MCP tools)", () => {
    const given = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
    const tool = defineTool({ name: "mcp_tool", description: "", parameters: z.object({ a: z.string() }), jsonSchema: given, execute: () => null });
    expect(tool.jsonSchema).toBe(given);
  });
});
