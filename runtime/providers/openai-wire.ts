import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import type { ToolCall } from "../session/chunk";
import type { Usage } from "../session/usage";
import type { CompletionResult } from "./completion-result";
import type { ChatMessage, FinishReason, ModelRequest, ToolSchema } from "./types";

/** Converts Rath chat messages to the SDK's message params (they share the Chat Completions shape). */
export function toOpenAIMessages(messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case "system":
        return { role: "system", content: message.content };
      case "user":
        return { role: "user", content: message.content };
      case "assistant":
        return message.tool_calls && message.tool_calls.length > 0
          ? { role: "assistant", content: message.content, tool_calls: message.tool_calls.map((call) => ({ id: call.id, type: "function", function: { ...call.function } })) }
          : { role: "assistant", content: message.content };
      case "tool":
        return { role: "tool", tool_call_id: message.tool_call_id, content: message.content };
    }
  });
}

/** Converts tool schemas to Chat Completions function tools. */
export function toOpenAITools(tools: readonly ToolSchema[]): ChatCompletionTool[] {
  return tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
}

/** The request body shared by the streaming and non-streaming calls. */
export function toOpenAIRequest(request: ModelRequest, model: string): ChatCompletionCreateParamsBase {
  return {
    model,
    messages: toOpenAIMessages(request.messages),
    ...(request.tools && request.tools.length > 0 ? { tools: toOpenAITools(request.tools) } : {}),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
  };
}

/** Maps a wire finish reason to Rath's; absent or unknown reasons fall back on whether tools were called. */
export function mapOpenAIFinishReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  switch (reason) {
    case "stop":
    case "length":
    case "tool_calls":
    case "content_filter":
      return reason;
    case "function_call":
      return "tool_calls";
    default:
      return hasToolCalls ? "tool_calls" : "stop";
  }
}

/** Reads wire usage, or null when the server sent none. */
export function toUsage(usage: { prompt_tokens?: number | null; completion_tokens?: number | null; total_tokens?: number | null } | null | undefined): Usage | null {
  if (!usage) return null;
  const prompt = usage.prompt_tokens ?? 0;
  const completion = usage.completion_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: usage.total_tokens ?? prompt + completion };
}

/** Reads a non-streaming completion (first choice only; Rath never asks for n > 1). */
export function fromOpenAICompletion(completion: ChatCompletion, requestedModel: string): CompletionResult {
  const choice = completion.choices[0];
  const toolCalls: ToolCall[] = [];
  for (const call of choice?.message.tool_calls ?? []) {
    if (call.type === "function") toolCalls.push({ id: call.id, type: "function", function: { name: call.function.name, arguments: call.function.arguments } });
  }
  return {
    content: choice?.message.content ?? null,
    toolCalls,
    finishReason: mapOpenAIFinishReason(choice?.finish_reason, toolCalls.length > 0),
    usage: toUsage(completion.usage),
    model: completion.model || requestedModel,
  };
}

/**
 * Assembles a streamed completion: text deltas are concatenated and reported, tool call pieces are joined
 * by their `index` (the id and name arrive first, arguments in pieces).
 */
export class OpenAIStreamAccumulator {
  private text = "";
  private sawText = false;
  private readonly calls = new Map<number, { id: string; name: string; arguments: string }>();
  private finishReason: string | null = null;
  private usage: Usage | null = null;
  private model: string | null = null;

  /** Folds one chunk in; returns the text delta it carried ("" when none). */
  add(chunk: ChatCompletionChunk): string {
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) this.usage = toUsage(chunk.usage);
    const choice = chunk.choices[0];
    if (!choice) return "";
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    for (const piece of choice.delta.tool_calls ?? []) {
      const call = this.calls.get(piece.index) ?? { id: "", name: "", arguments: "" };
      if (piece.id) call.id = piece.id;
      if (piece.function?.name) call.name += piece.function.name;
      if (piece.function?.arguments) call.arguments += piece.function.arguments;
      this.calls.set(piece.index, call);
    }
    const delta = choice.delta.content ?? "";
    if (delta !== "") {
      this.text += delta;
      this.sawText = true;
    }
    return delta;
  }

  /** The assembled completion; tool calls ordered by index. */
  result(requestedModel: string): CompletionResult {
    const toolCalls: ToolCall[] = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({ id: call.id || `call_${index}`, type: "function", function: { name: call.name, arguments: call.arguments } }));
    return {
      content: this.sawText ? this.text : null,
      toolCalls,
      finishReason: mapOpenAIFinishReason(this.finishReason, toolCalls.length > 0),
      usage: this.usage,
      model: this.model ?? requestedModel,
    };
  }
}
