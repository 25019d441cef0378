import { COMPRESSOR_REQUEST_HEADER, SELECTOR_MENU_HEADER } from "../agent/prompts";
import type { ChatMessage, ModelRequest, Provider } from "./types";
import type { Usage } from "../session/usage";
import { createScriptedProvider, type ScriptedStep } from "../testing/scripted-provider";
import { instructionsOf, lastUserIndex } from "./demo/conversation";
import { personaAnswer } from "./demo/personas";
import { chooseRoute, parseMenu } from "./demo/route";
import { summarise } from "./demo/summary";
import { planToolCall } from "./demo/tool-plan";

/** Model name of the demo provider: visibly scripted wherever a model name is shown. */
export const DEMO_MODEL = "scripted-demo";

type JsonSchema = Record<string, unknown>;

function asSchema(value: unknown): JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonSchema) : {};
}

function exampleString(name: string, context: string): string {
  const key = name.toLowerCase();
  if (key.includes("path") || key === "dir" || key === "directory") return ".";
  if (key === "cmd" || key.includes("command")) return "echo hello";
  if (key === "code") return "print('hello')";
  if (key === "language") return "python";
  if (key.includes("url")) return "https://example.com";
  if (key === "encoding") return "utf-8";
  if (["query", "text", "message", "input", "prompt", "question", "content"].includes(key)) return context.slice(0, 200) || "example";
  return "example";
}

/** A sensible example value for a JSON schema (defaults, enums, types; strings chosen by property name). */
export function exampleFromSchema(schema: unknown, name = "value", context = ""): unknown {
  const node = asSchema(schema);
  if ("default" in node) return node.default;
  if ("const" in node) return node.const;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const options = node[key];
    if (Array.isArray(options) && options.length > 0) return exampleFromSchema(options[0], name, context);
  }
  const type: unknown = Array.isArray(node.type) ? node.type.find((entry) => entry !== "null") : node.type;
  switch (type) {
    case "string":
      return exampleString(name, context);
    case "integer":
    case "number":
      return typeof node.minimum === "number" ? node.minimum : 1;
    case "boolean":
      return true;
    case "array":
      return [exampleFromSchema(node.items, name, context)];
    case "null":
      return null;
    default: {
      const properties = asSchema(node.properties);
      const required = Array.isArray(node.required) ? node.required.filter((key): key is string => typeof key === "string") : [];
      const result: Record<string, unknown> = {};
      for (const key of required) result[key] = exampleFromSchema(properties[key], key, context);
      return result;
    }
  }
}

function estimateUsage(request: ModelRequest, reply: string): Usage {
  const promptCharacters = request.messages.reduce((sum, message) => sum + (message.content?.length ?? 0), 0);
  const prompt = Math.max(1, Math.ceil(promptCharacters / 4));
  const completion = Math.max(1, Math.ceil(reply.length / 4));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** The tool results since the last user message, with the name of the tool that produced each. */
function toolResultsSince(messages: readonly ChatMessage[], userIndex: number): Array<{ name: string; content: string }> {
  const names = new Map<string, string>();
  const results: Array<{ name: string; content: string }> = [];
  for (const message of messages.slice(userIndex + 1)) {
    if (message.role === "assistant") for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
    if (message.role === "tool") results.push({ name: message.name ?? names.get(message.tool_call_id) ?? "tool", content: message.content });
  }
  return results;
}

/** The demo provider's answer to one request (exported for tests). */
export function demoStep(request: ModelRequest): ScriptedStep {
  const messages = request.messages;
  const userIndex = lastUserIndex(messages);
  const lastUser = userIndex >= 0 ? (messages[userIndex]?.content ?? "") : "";
  const reply = (content: string): ScriptedStep => ({ content, usage: estimateUsage(request, content) });

  if (lastUser.startsWith(SELECTOR_MENU_HEADER)) return reply(chooseRoute(messages.slice(0, userIndex), parseMenu(lastUser)));
  if (lastUser.startsWith(COMPRESSOR_REQUEST_HEADER)) return reply(summarise(messages.slice(0, userIndex)));

  const instructions = instructionsOf(request);
  const toolResults = toolResultsSince(messages, userIndex);
  const tools = request.tools ?? [];
  const planned = planToolCall(tools, { instructions, lastUser, messages }, toolResults);
  const firstTool = tools[0];
  const call = planned ?? (firstTool && toolResults.length === 0 ? { name: firstTool.name, arguments: asSchema(exampleFromSchema(firstTool.parameters, firstTool.name, lastUser)) } : null);
  if (call !== null) return { toolCalls: [call], usage: estimateUsage(request, JSON.stringify(call.arguments)) };
  return reply(personaAnswer({ instructions, messages, lastUser, toolResults, caller: request.caller ?? null }));
}

/**
 * A rule-based scripted provider for offline demos and the IDE's default when no API key is configured. It reads
 * the request like a model would: tools are called in a sensible order with arguments from the conversation
 * (demo/tool-plan.ts; an unknown tool is called once with arguments from its schema), final answers come from
 * the agent's instructions and the conversation (demo/personas.ts), a selector picks by reading the latest answer
 * and the candidates (demo/route.ts), a compressor keeps the key sentences (demo/summary.ts). Deterministic.
 * Named "scripted" with model "scripted-demo" so the UI shows it is not a real model.
 */
export function createDemoProvider(): Provider {
  return createScriptedProvider({ name: "scripted", model: DEMO_MODEL, steps: (request) => demoStep(request) });
}
