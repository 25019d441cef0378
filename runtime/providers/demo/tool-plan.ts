/**
 * Which tool the demo agent calls next, like a model following its instructions: list before reading, read a
 * file the listing showed, write what was approved to the file the conversation names; at most three calls per
 * user turn, then it answers. Arguments are built from the tool's JSON schema with values taken from the
 * conversation (a directory from an earlier result, a file name from a listing, the draft as file content).
 */
import type { ChatMessage, ToolSchema } from "../types";
import { assistantAnswers, fileNameIn, shorten } from "./conversation";

/** A planned tool call. */
export interface PlannedCall {
  name: string;
  arguments: Record<string, unknown>;
}

type Intent = "allowed" | "list" | "read" | "write" | "shell" | "code";

const INTENT_WORDS: Record<Intent, RegExp> = {
  allowed: /\ballowed\b/i,
  list: /\b(list|files|folder|director(y|ies)|browse|workspace)\b/i,
  read: /\b(read|open|look at|contents?|show)\b/i,
  write: /\b(write|save|store)\b/i,
  shell: /\b(shell|command|run)\b/i,
  code: /\b(code|python|compute|calculate)\b/i,
};

const TOOL_KINDS: Record<Intent, RegExp> = {
  allowed: /allowed_directories$/,
  list: /(list_workspace_files|list_directory)$/,
  read: /(read_workspace_file|read_text_file|read_file)$/,
  write: /(write_workspace_file|write_file)$/,
  shell: /run_shell_command$/,
  code: /run_code$/,
};

/** The most calls the demo makes for one user message. */
export const MAX_DEMO_TOOL_CALLS = 3;

function toolOf(tools: readonly ToolSchema[], intent: Intent): ToolSchema | undefined {
  return tools.find((tool) => TOOL_KINDS[intent].test(tool.name));
}

/** The file of a listing that fits the request best (most shared words with its name; a README only as a last resort). */
function fileFromListing(content: string, request: string): string | null {
  const names = [...new Set(content.match(/[A-Za-z0-9_-]+\.(?:md|txt|json|csv)\b/g) ?? [])];
  const wanted = new Set(request.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  let best: string | null = null;
  let bestScore = -1;
  for (const name of names) {
    const score = (name.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((word) => wanted.has(word)).length - (/^readme\./i.test(name) ? 1 : 0);
    if (score > bestScore) {
      best = name;
      bestScore = score;
    }
  }
  return best;
}

/** `text` as one shell word that nothing inside can escape from (no expansion inside single quotes). */
export function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

function argumentsFor(tool: ToolSchema, values: Record<string, unknown>): Record<string, unknown> {
  const schema = tool.parameters as { properties?: Record<string, unknown>; required?: string[] };
  const properties = Object.keys(schema.properties ?? {});
  const result: Record<string, unknown> = {};
  for (const key of properties) if (key in values) result[key] = values[key];
  for (const key of schema.required ?? []) if (!(key in result)) result[key] = values[key] ?? "example";
  return result;
}

/**
 * The next call for this turn, or null when the agent should answer: `calls` are the tool calls already made
 * since the last user message with their results.
 */
export function planToolCall(
  tools: readonly ToolSchema[],
  context: { instructions: string; lastUser: string; messages: readonly ChatMessage[] },
  calls: ReadonlyArray<{ name: string; content: string }>,
): PlannedCall | null {
  if (tools.length === 0 || calls.length >= MAX_DEMO_TOOL_CALLS) return null;
  const text = `${context.instructions}\n${context.lastUser}`;
  const called = (intent: Intent) => calls.some((call) => TOOL_KINDS[intent].test(call.name));
  const wants = (intent: Intent) => INTENT_WORDS[intent].test(text);

  const write = toolOf(tools, "write");
  if (write && wants("write") && !called("write")) {
    const path = fileNameIn(text) ?? fileNameIn(context.messages.map((message) => message.content ?? "").join("\n")) ?? "notes.md";
    const content = assistantAnswers(context.messages).at(-1) ?? context.lastUser;
    return { name: write.name, arguments: argumentsFor(write, { path, content: `${content.trim()}\n` }) };
  }
  const allowed = toolOf(tools, "allowed");
  const list = toolOf(tools, "list");
  const read = toolOf(tools, "read");
  if (list && (wants("list") || (read && wants("read"))) && !called("list")) {
    if (allowed && !called("allowed") && calls.length === 0) return { name: allowed.name, arguments: {} };
    return { name: list.name, arguments: argumentsFor(list, { path: "." }) };
  }
  if (read && wants("read") && !called("read")) {
    const listing = calls.find((call) => TOOL_KINDS.list.test(call.name));
    const file = (listing ? fileFromListing(listing.content, context.lastUser) : null) ?? fileNameIn(text);
    if (file !== null) return { name: read.name, arguments: argumentsFor(read, { path: file, encoding: "utf-8" }) };
  }
  if (calls.length > 0) return null;
  const shell = toolOf(tools, "shell");
  if (shell) return { name: shell.name, arguments: argumentsFor(shell, { cmd: wants("list") ? "ls -la" : `echo ${singleQuoted(shorten(context.lastUser, 60))}` }) };
  return null;
}
