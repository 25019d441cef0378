import { describe, expect, it } from "vitest";
import { schemaToTypeScript, toolTypings } from "./tool-typings";

describe("tool typings", () => {
  it("turns a parameters schema into the ToolArgs type", () => {
    const type = schemaToTypeScript({
      type: "object",
      properties: { a: { type: "number", description: "first" }, tags: { type: "array", items: { type: "string" } }, mode: { enum: ["x", "y"] }, "odd-name": { type: "boolean" } },
      required: ["a"],
    });
    expect(type).toContain("/** first */");
    expect(type).toContain("a: number;");
    expect(type).toContain("tags?: Array<string>;");
    expect(type).toContain('mode?: "x" | "y";');
    expect(type).toContain('"odd-name"?: boolean;');
  });
  it("declares RathTool over ToolArgs and falls back to unknown for odd schemas", () => {
    expect(toolTypings("add", { type: "object", properties: { a: { type: "integer" } }, required: ["a"] })).toMatch(/type ToolArgs = \{\n {2}a: number;\n\};/);
    expect(schemaToTypeScript("nope")).toBe("unknown");
    expect(schemaToTypeScript({ type: "object" })).toBe("Record<string, unknown>");
  });
});
