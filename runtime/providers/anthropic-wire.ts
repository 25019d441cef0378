import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsBase,
  MessageParam,
  RawMessageStreamEvent,
  Tool,
} from "@anthropic-ai/sdk/resources/messages/messages";
import type { ToolCall } from "../session/chunk";
import type { Usage } from "../session/usage";
import type { CompletionResult } from "./completion-result";
import type { ChatMessage, FinishReason, ModelRequest, ToolSchema } from "./types";

/** Anthropic requires `max_tokens`; this is sent when the request sets none. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/** The parts of a Messages request that come from Rath's chat messages. */
export interface AnthropicConversation {
  /** All system messages joined by a blank line, or undefined when there are none. */
  system: string | undefined;
  messages: MessageParam[];
}

/**
 * Converts Chat Completions style messages: system messages become the `system` parameter, assistant tool calls
 * become `tool_use` blocks, tool results become `tool_result` blocks in user turns, and consecutive messages of
 * one role are merged (Anthropic wants user and assistant turns to alternate).
 */
export function toAnthropicConversation(messages: readonly ChatMessage[]): AnthropicConversation {
  const system: string[] = [];
  const turns: { role: "user" | "assistant"; blocks: ContentBlockParam[] }[] = [];
  const push = (role: "user" | "assistant", blocks: ContentBlockParam[]): void => {
    // Anthropic refuses empty turns and empty text blocks; dropping them lets the neighbours merge.
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.blocks.push(...blocks);
    else turns.push({ role, blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case "system":
        system.push(message.content);
        break;
      case "user":
        push("user", message.content === "" ? [] : [{ type: "text", text: message.content }]);
        break;
      case "assistant": {
        const blocks: ContentBlockParam[] = message.content ? [{ type: "text", text: message.content }] : [];
        for (const call of message.tool_calls ?? []) {
          blocks.push({ type: "tool_use", id: call.id, name: call.function.name, input: parseToolInput(call.function.arguments) });
        }
        push("assistant", blocks);
        break;
      }
      case "tool":
        push("user", [{ type: "tool_result", tool_use_id: message.tool_call_id, content: message.content }]);
        break;
    }
  }
  return {
    system: system.length > 0 ? system.join("\n\n") : undefined,
    messages: turns.map(({ role, blocks }) => {
      const only = blocks[0];
      return blocks.length === 1 && only?.type === "text" ? { role, content: only.text } : { role, content: blocks };
    }),
  };
}

/** Parses tool call arguments into the object Anthropic expects; text that is not a JSON object is kept under `arguments`. */
export function parseToolInput(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through: keep the model's text so that nothing is lost
  }
  return { arguments: text };
}

/** Converts tool schemas to Anthropic tools (`input_schema` must be an object schema). */
export function toAnthropicTools(tools: readonly ToolSchema[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { ...tool.parameters, type: "object" },
  }));
}

/** The request body shared by the streaming and non-streaming calls. */
export function toAnthropicRequest(request: ModelRequest, model: string): MessageCreateParamsBase {
  const conversation = toAnthropicConversation(request.messages);
  return {
    model,
    max_tokens: request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    messages: conversation.messages,
    ...(conversation.system === undefined ? {} : { system: conversation.system }),
    ...(request.tools && request.tools.length > 0 ? { tools: toAnthropicTools(request.tools) } : {}),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
  };
}

/** Maps Anthropic's stop reason to Rath's finish reason. */
export function mapAnthropicStopReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
    case "pause_turn":
      return "stop";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "tool_calls";
    case "refusal":
      return "content_filter";
    default:
      return hasToolCalls ? "tool_calls" : "stop";
  }
}

/** Anthropic usage as Rath usage: prompt counts cache writes and reads too, total is prompt + completion. */
export function toAnthropicUsage(input: number, output: number): Usage {
  return { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
}

interface AnthropicInputUsage {
  input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

function inputTokens(usage: AnthropicInputUsage): number {
  return (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

/** Reads a non-streaming Messages response. */
export function fromAnthropicMessage(message: Message, requestedModel: string): CompletionResult {
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of message.content) {
    if (block.type === "text") texts.push(block.text);
    else if (block.type === "tool_use") toolCalls.push({ id: block.id, type: "function", function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
  }
  return {
    content: texts.length > 0 ? texts.join("") : null,
    toolCalls,
    finishReason: mapAnthropicStopReason(message.stop_reason, toolCalls.length > 0),
    usage: message.usage ? toAnthropicUsage(inputTokens(message.usage), message.usage.output_tokens ?? 0) : null,
    model: message.model || requestedModel,
  };
}

type StreamBlock = { kind: "text"; text: string } | { kind: "tool"; id: string; name: string; json: string };

/** Assembles a Messages event stream: text deltas are reported, tool inputs are joined from `input_json_delta` pieces. */
export class AnthropicStreamAccumulator {
  private readonly blocks = new Map<number, StreamBlock>();
  private stopReason: string | null = null;
  private input: number | null = null;
  private output: number | null = null;
  private model: string | null = null;

  /** Folds one event in; returns the text delta it carried ("" when none). */
  add(event: RawMessageStreamEvent): string {
    switch (event.type) {
      case "message_start":
        this.model = event.message.model;
        this.input = inputTokens(event.message.usage);
        this.output = event.message.usage.output_tokens ?? null;
        return "";
      case "content_block_start": {
        const block = event.content_block;
        if (block.type === "text") this.blocks.set(event.index, { kind: "text", text: block.text });
        else if (block.type === "tool_use") this.blocks.set(event.index, { kind: "tool", id: block.id, name: block.name, json: "" });
        return block.type === "text" ? block.text : "";
      }
      case "content_block_delta": {
        const block = this.blocks.get(event.index);
        if (event.delta.type === "text_delta" && block?.kind === "text") {
          block.text += event.delta.text;
          return event.delta.text;
        }
        if (event.delta.type === "input_json_delta" && block?.kind === "tool") block.json += event.delta.partial_json;
        return "";
      }
      case "message_delta":
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        this.output = event.usage.output_tokens ?? this.output;
        if (event.usage.input_tokens !== null && event.usage.input_tokens !== undefined) this.input = inputTokens(event.usage);
        return "";
      default:
        return "";
    }
  }

  /** The assembled response, blocks in index order. */
  result(requestedModel: string): CompletionResult {
    const ordered = [...this.blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
    const texts = ordered.filter((block) => block.kind === "text").map((block) => block.text);
    const toolCalls: ToolCall[] = ordered.flatMap((block) =>
      block.kind === "tool" ? [{ id: block.id, type: "function" as const, function: { name: block.name, arguments: JSON.stringify(parseToolInput(block.json)) } }] : [],
    );
    return {
      content: texts.length > 0 ? texts.join("") : null,
      toolCalls,
      finishReason: mapAnthropicStopReason(this.stopReason, toolCalls.length > 0),
      usage: this.input === null && this.output === null ? null : toAnthropicUsage(this.input ?? 0, this.output ?? 0),
      model: this.model ?? requestedModel,
    };
  }
}
