import type { ChatMessage } from "../providers/types";
import { memoryHitText, type Chunk } from "../session/chunk";

/**
 * What the model sees of a sequence of chunks: system/user/assistant/tool_result map to Chat Completions
 * messages; each hit of a `memory` recall chunk becomes a system message `[memory:{uri}] {snippet}`;
 * commit/remember memory chunks and `route` chunks are evidence only and are not sent.
 */
export function chunksToMessages(chunks: Iterable<Chunk>): ChatMessage[] {
  const messages: ChatMessage[] = [];
  appendMessages(messages, chunks);
  return messages;
}

/** Pushes what the model sees of `chunks` (see `chunksToMessages`) onto `messages`. */
export function appendMessages(messages: ChatMessage[], chunks: Iterable<Chunk>): void {
  for (const chunk of chunks) {
    switch (chunk.kind) {
      case "system":
      case "user":
        messages.push({ role: chunk.kind, content: chunk.payload.content });
        break;
      case "assistant": {
        const calls = chunk.payload.tool_calls ?? [];
        messages.push(
          calls.length > 0
            ? { role: "assistant", content: chunk.payload.content, tool_calls: calls.map((call) => ({ ...call, function: { ...call.function } })) }
            : { role: "assistant", content: chunk.payload.content },
        );
        break;
      }
      case "tool_result":
        messages.push({ role: "tool", tool_call_id: chunk.payload.tool_call_id, name: chunk.payload.name, content: chunk.payload.content });
        break;
      case "memory":
        if (chunk.payload.op === "recall") {
          for (const hit of chunk.payload.hits ?? []) messages.push({ role: "system", content: memoryHitText(hit) });
        }
        break;
      case "route":
        break;
    }
  }
}

/** Messages for a completion: the component's own chunks (instructions) first, then the session's. */
export function sessionToMessages(session: { chunks: Iterable<Chunk> }, head: { chunks: Iterable<Chunk> } | null = null): ChatMessage[] {
  return [...(head ? chunksToMessages(head.chunks) : []), ...chunksToMessages(session.chunks)];
}
