/**
 * Names of the runtime's built-in tools (SPEC §4), as the canvas and validation know them. A user tool with one of
 * these names clashes with the built-in.
 */
export const BUILTIN_TOOL_NAMES = [
  "run_shell_command",
  "read_workspace_file",
  "write_workspace_file",
  "list_workspace_files",
  "workspace_path_exists",
  "run_code",
] as const;

/** One built-in tool name. */
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

const builtinNames: ReadonlySet<string> = new Set(BUILTIN_TOOL_NAMES);

/** True when `name` is the name of a built-in tool. */
export function isBuiltinToolName(name: string): name is BuiltinToolName {
  return builtinNames.has(name);
}
