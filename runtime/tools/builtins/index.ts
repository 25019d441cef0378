import type { Tool } from "../types";
import { listWorkspaceFiles } from "./list-workspace-files";
import { readWorkspaceFile } from "./read-workspace-file";
import { runCode } from "./run-code";
import { runShellCommand } from "./run-shell-command";
import { workspacePathExists } from "./workspace-path-exists";
import { writeWorkspaceFile } from "./write-workspace-file";

/** The six built-in tools, with the reference implementation's names and arguments. */
export const BUILTIN_TOOLS: readonly Tool[] = Object.freeze([
  runShellCommand,
  readWorkspaceFile,
  writeWorkspaceFile,
  listWorkspaceFiles,
  workspacePathExists,
  runCode,
] as Tool[]);

/** Names of the built-in tools (reserved: a user tool may not take one). */
export const BUILTIN_TOOL_NAMES: readonly string[] = Object.freeze(BUILTIN_TOOLS.map((tool) => tool.name));

export { listWorkspaceFiles, readWorkspaceFile, runCode, runShellCommand, workspacePathExists, writeWorkspaceFile };
