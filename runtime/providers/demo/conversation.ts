/** Reading a chat request the way the demo provider needs: the last user message, the instructions, earlier answers. */
import type { ChatMessage, ModelRequest } from "../types";

/** Index of the last user message, or -1. */
export function lastUserIndex(messages: readonly ChatMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--) if (messages[index]?.role === "user") return index;
  return -1;
}

/** Text with whitespace collapsed, cut to `length` characters with an ellipsis. */
export function shorten(text: string, length: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= length ? flat : `${flat.slice(0, length - 1)}…`;
}

/** The agent's instructions: the first system message that is not a recalled memory. */
export function instructionsOf(request: ModelRequest): string {
  const system = request.messages.find((message) => message.role === "system" && !(message.content ?? "").startsWith("[memory:"));
  return system?.content ?? "";
}

/** The assistant answers (text, not tool calls) in the conversation, oldest first. */
export function assistantAnswers(messages: readonly ChatMessage[]): string[] {
  return messages.filter((message) => message.role === "assistant" && typeof message.content === "string" && message.content !== "").map((message) => message.content as string);
}

/** The user messages, oldest first. */
export function userMessages(messages: readonly ChatMessage[]): string[] {
  return messages.filter((message) => message.role === "user").map((message) => message.content ?? "");
}

/** Recalled memories (`[memory:uri] snippet` system messages) as their snippets. */
export function recalledMemories(messages: readonly ChatMessage[]): string[] {
  return messages
    .filter((message) => message.role === "system" && (message.content ?? "").startsWith("[memory:"))
    .map((message) => (message.content ?? "").replace(/^\[memory:[^\]]*\]\s*/, ""));
}

/** How many earlier answers start with `prefix` (the demo's personas number their own turns this way). */
export function countAnswersStartingWith(messages: readonly ChatMessage[], prefix: RegExp): number {
  return assistantAnswers(messages).filter((answer) => prefix.test(answer)).length;
}

/** The first file name mentioned in `text` (`notes.md`, `release-notes.txt`), or null. */
export function fileNameIn(text: string): string | null {
  return /\b([A-Za-z0-9_-]+\.(?:md|txt|json|csv|ts|js|py))\b/.exec(text)?.[1] ?? null;
}
