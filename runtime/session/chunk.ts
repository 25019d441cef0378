import { z } from "zod";
import { Usage } from "./usage";

/** A tool call as the model emits it (OpenAI Chat Completions shape). */
/**
 * One tool call of an assistant chunk, in OpenAI's wire form. `type` is usually "function"; other types
 * (e.g. OpenAI's "custom" tools) are kept as they came, as the reference keeps them.
 */
export const ToolCall = z.object({
  id: z.string(),
  type: z.string(),
  function: z.object({ name: z.string(), arguments: z.string() }),
});
export type ToolCall = z.infer<typeof ToolCall>;

export const TOOL_ERROR_KINDS = [
  "invalid_tool_arguments",
  "unknown_tool",
  "tool_execution_exception",
  "tool_policy_denied",
  "timeout",
  "os_error",
  "file_not_found",
  "unsupported_tool",
  "sandbox_closed",
] as const;
export const ToolErrorKind = z.enum(TOOL_ERROR_KINDS);
export type ToolErrorKind = z.infer<typeof ToolErrorKind>;

/** Where a tool ran. */
export const SandboxRef = z.object({
  backend: z.string(),
  working_dir: z.string().nullable(),
  handle_id: z.string().nullable(),
});
export type SandboxRef = z.infer<typeof SandboxRef>;

/** Evidence of one tool call, carried by its tool_result chunk. */
export const ToolEvidence = z.object({
  args: z.unknown(),
  ok: z.boolean(),
  error_kind: ToolErrorKind.optional(),
  duration_ms: z.number().nonnegative(),
  sandbox: SandboxRef.nullable(),
  resource_key: z.string().nullable(),
  /** True when the result was replayed from the durable effect ledger instead of executing the tool. */
  replayed: z.boolean().optional(),
});
export type ToolEvidence = z.infer<typeof ToolEvidence>;

/** Metadata every chunk carries (Rath addition; absent in reference-dialect files). */
export const ChunkMeta = z.object({
  at: z.string(),
  producer: z.string().optional(),
  usage: Usage.optional(),
  model: z.string().optional(),
  latency_ms: z.number().nonnegative().optional(),
  evidence: ToolEvidence.optional(),
  /** For a compressed session's summary chunk: the session whose rows it summarised. */
  source_session_id: z.string().optional(),
});
export type ChunkMeta = z.infer<typeof ChunkMeta>;

export const TextPayload = z.object({ content: z.string() });
export const AssistantPayload = z.object({
  content: z.string().nullable(),
  tool_calls: z.array(ToolCall).nullable(),
});
export const ToolResultPayload = z.object({ tool_call_id: z.string(), name: z.string(), content: z.string() });
export const MemoryHit = z.object({ uri: z.string(), score: z.number(), snippet: z.string() });
export type MemoryHit = z.infer<typeof MemoryHit>;

/**
 * The system message a recalled memory hit becomes, as the reference's recall injection words it:
 * `[memory:{uri}] {snippet}` with the snippet trimmed, or `[memory:{uri}]` when the snippet is empty.
 */
export function memoryHitText(hit: { uri: string; snippet: string | null }): string {
  const snippet = (hit.snippet ?? "").trim();
  return snippet.length > 0 ? `[memory:${hit.uri}] ${snippet}` : `[memory:${hit.uri}]`;
}
export const MemoryPayload = z.object({
  op: z.enum(["recall", "commit", "remember"]),
  store: z.string(),
  query: z.string().optional(),
  hits: z.array(MemoryHit).optional(),
  uri: z.string().optional(),
  count: z.number().int().nonnegative().optional(),
});
export const RouteCandidate = z.object({ index: z.number().int(), name: z.string(), description: z.string() });
export const RoutePayload = z.object({
  selector: z.string(),
  candidates: z.array(RouteCandidate),
  chosen: z.number().int(),
  reply: z.string(),
});

const withMeta = <K extends string, P extends z.ZodTypeAny>(kind: K, payload: P) =>
  z.object({ kind: z.literal(kind), payload, meta: ChunkMeta });

/** One entry of a Session's append-only conversation. */
export const Chunk = z.discriminatedUnion("kind", [
  withMeta("system", TextPayload),
  withMeta("user", TextPayload),
  withMeta("assistant", AssistantPayload),
  withMeta("tool_result", ToolResultPayload),
  withMeta("memory", MemoryPayload),
  withMeta("route", RoutePayload),
]);
export type Chunk = z.infer<typeof Chunk>;
export type ChunkKind = Chunk["kind"];
export type ChunkOf<K extends ChunkKind> = Extract<Chunk, { kind: K }>;

/** The four kinds the reference implementation knows. */
export const REFERENCE_CHUNK_KINDS = ["system", "user", "assistant", "tool_result"] as const;

type PayloadOf<K extends ChunkKind> = ChunkOf<K>["payload"];

let stampedAt = Number.NaN;
let stamp = "";

/**
 * Now as an ISO 8601 string (millisecond precision). Formatting a Date costs more than the rest of a small
 * chunk, and an agent round makes several chunks within one millisecond, so the string of the current
 * millisecond is kept and reused.
 */
export function isoNow(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stamp = new Date(now).toISOString();
    stampedAt = now;
  }
  return stamp;
}

/** Builds a chunk with `meta.at` set to now (or the given time). */
export function makeChunk<K extends ChunkKind>(
  kind: K,
  payload: PayloadOf<K>,
  meta: Partial<ChunkMeta> = {},
): ChunkOf<K> {
  return { kind, payload, meta: { at: meta.at ?? isoNow(), ...meta } } as ChunkOf<K>;
}

/** Text of a chunk for display and prompts (content for text kinds, a short rendering for the others). */
export function chunkText(chunk: Chunk): string {
  switch (chunk.kind) {
    case "system":
    case "user":
      return chunk.payload.content;
    case "assistant":
      return chunk.payload.content ?? "";
    case "tool_result":
      return chunk.payload.content;
    case "memory":
      return (chunk.payload.hits ?? []).map((hit) => `[memory:${hit.uri}] ${hit.snippet}`).join("\n");
    case "route":
      return chunk.payload.reply;
  }
}
