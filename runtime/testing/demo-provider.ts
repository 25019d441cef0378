import { COMPRESSOR_REQUEST_HEADER, SELECTOR_MENU_HEADER } from "../agent/prompts";
import type { ChatMessage, ModelRequest, Provider } from "../providers/types";
import type { Usage } from "../session/usage";
import { createScriptedProvider, type ScriptedStep } from "./scripted-provider";

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
  const type = Array.isArray(node.type) ? node.type.find((entry) => entry !== "null") : node.type;
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

function lastUserIndex(messages: readonly ChatMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--) if (messages[index]?.role === "user") return index;
  return -1;
}

function estimateUsage(request: ModelRequest, reply: string): Usage {
  const promptCharacters = request.messages.reduce((sum, message) => sum + (message.content?.length ?? 0), 0);
  const prompt = Math.max(1, Math.ceil(promptCharacters / 4));
  const completion = Math.max(1, Math.ceil(reply.length / 4));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function shorten(text: string, length: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= length ? flat : `${flat.slice(0, length - 1)}…`;
}

/** The demo provider's answer to one request (exported for tests). */
export function demoStep(request: ModelRequest): ScriptedStep {
  const messages = request.messages;
  const userIndex = lastUserIndex(messages);
  const lastUser = userIndex >= 0 ? (messages[userIndex]?.content ?? "") : "";
  const reply = (content: string): ScriptedStep => ({ content, usage: estimateUsage(request, content) });

  if (lastUser.startsWith(SELECTOR_MENU_HEADER)) return reply("0");
  if (lastUser.startsWith(COMPRESSOR_REQUEST_HEADER)) {
    const said = messages.slice(0, userIndex).filter((message) => message.role === "user" || message.role === "assistant");
    const points = said.map((message) => `${message.role}: ${shorten(message.content ?? "", 80)}`);
    return reply(`Summary of ${said.length} message(s). ${points.join(" | ")}`.trim());
  }
  const toolsSince = messages.slice(userIndex + 1).filter((message): message is Extract<ChatMessage, { role: "tool" }> => message.role === "tool");
  const firstTool = request.tools?.[0];
  if (firstTool && toolsSince.length === 0) {
    const args = exampleFromSchema(firstTool.parameters, firstTool.name, lastUser);
    return { toolCalls: [{ name: firstTool.name, arguments: asSchema(args) }], usage: estimateUsage(request, JSON.stringify(args)) };
  }
  const quoted = `(scripted demo) You said: "${shorten(lastUser, 160)}".`;
  const last = toolsSince.at(-1);
  return reply(last ? `${quoted} Tool ${last.name ?? "result"} returned ${shorten(last.content, 160)}` : quoted);
}

/**
 * A rule-based scripted provider for offline demos and the IDE's default when no API key is configured:
 * it calls the first offered tool once per user message (arguments made from its JSON schema), then answers
 * with a short deterministic reply quoting the user; selector prompts get "0", compressor prompts a summary.
 * Named "scripted" with model "scripted-demo" so the UI shows it is not a real model.
 */
export function createDemoProvider(): Provider {
  return createScriptedProvider({ name: "scripted", model: DEMO_MODEL, steps: (request) => demoStep(request) });
}
