import { z } from "zod";
import type { ToolCall } from "../session/chunk";
import type { Usage } from "../session/usage";

/** A message in the Chat Completions shape, the lingua franca of providers. */
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string; name?: string };

/** A tool as the model sees it: name, description and JSON schema of the arguments. */
export interface ToolSchema {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export const FinishReason = z.enum(["stop", "length", "tool_calls", "content_filter"]);
export type FinishReason = z.infer<typeof FinishReason>;

export interface ModelRequest {
  model: string;
  /**
   * The conversation so far. Read it during the call: a caller may pass an array it extends afterwards (the
   * Agent appends each round's messages to the same array once the call returned, so a round costs O(new
   * messages)) and it never changes the entries already there. A provider that keeps a request past the call
   * keeps `messages.length` with it (as the scripted provider does) or copies the array.
   */
  messages: readonly ChatMessage[];
  tools?: ToolSchema[];
  temperature?: number;
  maxTokens?: number;
  /**
   * The name of the agent asking. Real providers do not send it; the demo provider uses it so that two agents
   * with the same instructions (two branches of a fork) still answer differently, deterministically.
   */
  caller?: string;
}

export interface ModelResponse {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  usage: Usage | null;
  model: string;
  latencyMs: number;
}

export interface CompleteOptions {
  /** Called with each streamed text delta; when absent the provider may use a non-streaming request. */
  onDelta?: (text: string) => void;
  /** Called before each retry (for `model.retry.scheduled` events). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
  signal?: AbortSignal;
}

/**
 * The port every model adapter implements (OpenAI-compatible, Anthropic, scripted). Adapters own retries;
 * failures that survive retries throw `RathError("provider_error" | "provider_unavailable")`.
 */
export interface Provider {
  /** Display name, e.g. "openai", "anthropic", "scripted". */
  readonly name: string;
  readonly kind: "openai" | "anthropic" | "scripted";
  /** Model used when a request names none. */
  readonly defaultModel: string;
  complete(request: ModelRequest, options?: CompleteOptions): Promise<ModelResponse>;
}
