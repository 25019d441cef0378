/**
 * Prompt texts of the selector and the compressor. The demo provider recognises requests by the first line
 * of their final user message, so these headers are part of the contract between them.
 */

/** Default system instruction of a Selector. */
export const DEFAULT_SELECTOR_INSTRUCTIONS =
  "You are a router. Given the conversation above and a numbered menu of candidate workflows, reply with ONLY " +
  "the single integer index of the best-matching workflow. Reply -1 if none of them applies or the task is " +
  "already complete. Output the integer and nothing else.";

/** First line of the selector's final user message. */
export const SELECTOR_MENU_HEADER = "Candidate workflows:";

/** The selector's final user message: the menu as `i: description` lines. */
export function selectorMenu(descriptions: readonly string[]): string {
  const lines = descriptions.map((description, index) => `${index}: ${description}`);
  return `${SELECTOR_MENU_HEADER}\n${lines.join("\n")}\n\nReply with one index, or -1.`;
}

/** First line of the compressor's final user message. */
export const COMPRESSOR_REQUEST_HEADER = "Compress the conversation above.";

/** Default compressor instruction (what the summary must keep). */
export const DEFAULT_COMPRESSOR_INSTRUCTIONS =
  "The messages above are a conversation transcript. Compress them into a shorter narrative that preserves " +
  "facts, user goals, and open tasks. Output plain text only, suitable as the sole replacement user-side " +
  "transcript, with no role labels.";

/** The compressor's final user message. */
export function compressorRequest(instructions: string): string {
  return `${COMPRESSOR_REQUEST_HEADER}\n${instructions}`;
}
