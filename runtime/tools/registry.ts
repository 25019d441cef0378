import { RathError } from "../errors";
import type { ToolSchema } from "../providers/types";
import { BUILTIN_TOOL_NAMES, BUILTIN_TOOLS } from "./builtins";
import type { Tool } from "./types";

/** Which built-ins a registry includes: all (`true`), none (`false`, the default) or the named ones. */
export type BuiltinSelection = boolean | readonly string[];

function selectBuiltins(selection: BuiltinSelection): Tool[] {
  if (selection === true) return [...BUILTIN_TOOLS];
  if (selection === false) return [];
  const unknown = selection.filter((name) => !BUILTIN_TOOL_NAMES.includes(name));
  if (unknown.length > 0) {
    throw new RathError(
      "invalid_tool_definition",
      `unknown built-in tool${unknown.length > 1 ? "s" : ""} ${unknown.map((name) => `'${name}'`).join(", ")}; available: ${BUILTIN_TOOL_NAMES.join(", ")}`,
    );
  }
  return BUILTIN_TOOLS.filter((tool) => selection.includes(tool.name));
}

/**
 * The tools one agent offers the model, by name. Built-in names are reserved: a user tool with one is
 * `duplicate_tool` (whether or not the built-ins are included), and so are two user tools with one name.
 */
export class ToolRegistry {
  private readonly tools: ReadonlyMap<string, Tool>;

  private constructor(tools: ReadonlyMap<string, Tool>) {
    this.tools = tools;
  }

  /** A registry of the built-ins selected by `options.builtins` (none by default) followed by `tools`. */
  static of(tools: readonly Tool[], options: { builtins?: BuiltinSelection } = {}): ToolRegistry {
    const byName = new Map<string, Tool>();
    for (const tool of selectBuiltins(options.builtins ?? false)) byName.set(tool.name, tool);
    for (const tool of tools) {
      if (BUILTIN_TOOL_NAMES.includes(tool.name)) {
        throw new RathError("duplicate_tool", `tool '${tool.name}' has the name of a built-in tool; choose another name`, {
          details: { tool: tool.name },
        });
      }
      if (byName.has(tool.name)) {
        throw new RathError("duplicate_tool", `two tools are named '${tool.name}'; expected unique tool names`, { details: { tool: tool.name } });
      }
      byName.set(tool.name, tool);
    }
    return new ToolRegistry(byName);
  }

  /** The tool with this name, or undefined. */
  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** Every tool, built-ins first, then user tools in the order given. */
  list(): Tool[] {
    return [...this.tools.values()];
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** The tools as the model sees them. */
  schemas(): ToolSchema[] {
    return this.list().map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.jsonSchema }));
  }
}
