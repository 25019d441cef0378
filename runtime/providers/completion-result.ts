import type { ToolCall } from "../session/chunk";
import type { Usage } from "../session/usage";
import type { FinishReason } from "./types";

/** What one model call said, as an adapter reads it off the wire; the provider adds the latency. */
export interface CompletionResult {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  usage: Usage | null;
  model: string;
}
