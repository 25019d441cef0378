import { z } from "zod";

/** Token usage as providers report it. */
export const Usage = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative(),
});
export type Usage = z.infer<typeof Usage>;

/** Adds two usages; null means "no provider reported any" and is the identity. */
export function addUsage(a: Usage | null | undefined, b: Usage | null | undefined): Usage | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return {
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}
