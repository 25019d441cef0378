import type { z } from "zod";
import type { ToolCall, ToolErrorKind } from "../session/chunk";
import { policyDenial, type CallCounter, type ToolPolicy } from "./policy";
import type { ToolRegistry } from "./registry";
import type { Tool } from "./types";

/** A call that passed parsing, validation and policy: ready to run. */
export interface ReadyCall {
  readonly ready: true;
  readonly call: ToolCall;
  readonly tool: Tool;
  readonly args: unknown;
  readonly resourceKey: string | null;
}

/** A call refused before running, with the error that becomes its tool_result. */
export interface RefusedCall {
  readonly ready: false;
  readonly call: ToolCall;
  readonly args: unknown;
  readonly resourceKey: string | null;
  readonly kind: ToolErrorKind;
  readonly message: string;
  readonly detail?: unknown;
}

/** Outcome of checking one call. */
export type PreparedCall = ReadyCall | RefusedCall;

/** A zod issue as the model sees it: where, what, why. */
export interface ArgumentIssue {
  readonly path: string;
  readonly code: string;
  readonly message: string;
}

function issuesOf(error: z.ZodError): ArgumentIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(root)",
    code: issue.code,
    message: issue.message,
  }));
}

function refuse(call: ToolCall, args: unknown, kind: ToolErrorKind, message: string, detail?: unknown): RefusedCall {
  return { ready: false, call, args, resourceKey: null, kind, message, ...(detail === undefined ? {} : { detail }) };
}

/** Parses the model's argument string; an empty string means no arguments. */
function parseArguments(raw: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (raw.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/**
 * Checks one model tool call in the order the README describes: JSON arguments, known tool, arguments
 * against the tool's zod schema, then the policy (which spends one unit of `maxCalls` when it lets it through).
 */
export function prepareCall(call: ToolCall, registry: ToolRegistry, policy: ToolPolicy | undefined, counter: CallCounter): PreparedCall {
  const name = call.function.name;
  const parsed = parseArguments(call.function.arguments);
  if (!parsed.ok) {
    return refuse(
      call,
      call.function.arguments,
      "invalid_tool_arguments",
      `arguments for '${name}' are not valid JSON (${parsed.error}); expected a JSON object`,
      { arguments: call.function.arguments.slice(0, 2000) },
    );
  }
  const tool = registry.get(name);
  if (!tool) {
    const available = registry.names().filter((candidate) => !policy?.allowedTools || policy.allowedTools.includes(candidate));
    return refuse(call, parsed.value, "unknown_tool", `unknown tool '${name}'; available: ${available.join(", ") || "none"}`, { available });
  }
  const validated = tool.parameters.safeParse(parsed.value);
  if (!validated.success) {
    const issues = issuesOf(validated.error);
    const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
    return refuse(call, parsed.value, "invalid_tool_arguments", `invalid arguments for '${name}': ${summary}`, issues);
  }
  let resourceKey: string | null;
  try {
    resourceKey = tool.resourceKey(validated.data);
  } catch (error) {
    return refuse(call, validated.data, "tool_execution_exception", `${(error as Error).name}: ${(error as Error).message}`, (error as Error).name);
  }
  const denial = policyDenial(policy, name, validated.data, counter);
  if (denial) return { ...refuse(call, validated.data, "tool_policy_denied", denial), resourceKey };
  return { ready: true, call, tool, args: validated.data, resourceKey };
}
