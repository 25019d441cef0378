import { z } from "zod";
import { describe, expect, it } from "vitest";
import { RathError } from "../errors";
import { BUILTIN_TOOL_NAMES } from "./builtins";
import { defineTool } from "./define-tool";
import { ToolRegistry } from "./registry";

const echo = defineTool({ name: "echo", description: "Echo.", parameters: z.object({ text: z.string() }), execute: ({ text }) => text });

function thrown(run: () => unknown): RathError {
  try {
    run();
  } catch (error) {
    if (error instanceof RathError) return error;
  }
  throw new Error("expected a RathError");
}

describe("ToolRegistry", () => {
  it("has no built-ins unless asked", () => {
    expect(ToolRegistry.of([echo]).names()).toEqual(["echo"]);
  });

  it("includes all six built-ins with the reference names, then user tools", () => {
    const registry = ToolRegistry.of([echo], { builtins: true });
    expect(registry.names()).toEqual([
      "run_shell_command",
      "read_workspace_file",
      "write_workspace_file",
      "list_workspace_files",
      "workspace_path_exists",
      "run_code",
      "echo",
    ]);
    expect(registry.get("run_code")?.name).toBe("run_code");
    expect(registry.get("nope")).toBeUndefined();
  });

  it("includes only the named built-ins, and refuses unknown ones", () => {
    expect(ToolRegistry.of([], { builtins: ["read_workspace_file"] }).names()).toEqual(["read_workspace_file"]);
    const error = thrown(() => ToolRegistry.of([], { builtins: ["read_file"] }));
    expect(error.code).toBe("invalid_tool_definition");
    expect(error.message).toContain("'read_file'");
  });

  it.each(BUILTIN_TOOL_NAMES)("refuses a user tool named like the built-in %s, naming it", (name) => {
    const clash = defineTool({ name, description: "", parameters: z.object({}), execute: () => null });
    for (const builtins of [true, false]) {
      const error = thrown(() => ToolRegistry.of([clash], { builtins }));
      expect(error.code).toBe("duplicate_tool");
      expect(error.message).toContain(`'${name}'`);
    }
  });

  it("refuses two user tools with one name", () => {
    const error = thrown(() => ToolRegistry.of([echo, echo]));
    expect([error.code, error.message]).toEqual(["duplicate_tool", "two tools are named 'echo'; expected unique tool names"]);
  });

  it("gives the model's view of every tool", () => {
    const schemas = ToolRegistry.of([echo], { builtins: ["run_shell_command"] }).schemas();
    expect(schemas.map((schema) => schema.name)).toEqual(["run_shell_command", "echo"]);
    expect(schemas[0]?.parameters).toMatchObject({ type: "object", properties: { cmd: { type: "string", maxLength: 2048 } }, required: ["cmd"] });
    expect(schemas[1]).toEqual({ name: "echo", description: "Echo.", parameters: echo.jsonSchema });
  });

  it("shows the reference arguments of the built-ins", () => {
    const byName = new Map(ToolRegistry.of([], { builtins: true }).schemas().map((schema) => [schema.name, schema.parameters]));
    const shape = (name: string) => {
      const parameters = byName.get(name) as { properties: Record<string, unknown>; required: string[] };
      return { properties: Object.keys(parameters.properties), required: parameters.required };
    };
    expect(shape("run_shell_command")).toEqual({ properties: ["cmd"], required: ["cmd"] });
    expect(shape("read_workspace_file")).toEqual({ properties: ["path", "encoding"], required: ["path"] });
    expect(shape("write_workspace_file")).toEqual({ properties: ["path", "content"], required: ["path", "content"] });
    expect(shape("list_workspace_files")).toEqual({ properties: ["path"], required: ["path"] });
    expect(shape("workspace_path_exists")).toEqual({ properties: ["path"], required: ["path"] });
    expect(shape("run_code")).toEqual({ properties: ["code", "language", "timeout"], required: ["code"] });
  });
});
