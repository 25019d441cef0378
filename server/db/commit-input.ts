/**
 * The sessions and chunks of a step commit, parsed without a zod walk when they are already in their schemas'
 * form (what the engine's step recorder hands over): every field of the right type, nothing unknown. Such a value
 * is rebuilt in the schema's key order with its defaults filled, which is what `SessionInput.parse` and
 * `ChunkInput.parse` return for it, so the stored JSON is byte for byte the same. Anything else (a sandbox spec,
 * tool evidence, memory and route chunks, an unknown key, a wrong type) goes through the schemas, whose errors
 * then read as before. A zod walk of one small session and chunk cost ~0.3 ms of a ~2 ms SQLite step.
 */
import { z } from "zod";
import type { Chunk, ToolCall } from "../../runtime/session/chunk";
import { LINEAGE_KINDS, type Lineage } from "../../runtime/session/lineage";
import type { Usage } from "../../runtime/session/usage";
import { ChunkInput, SessionInput } from "./session-record";

type ParsedSession = z.infer<typeof SessionInput>;
type ParsedChunk = z.infer<typeof ChunkInput>;

const SessionInputs = z.array(SessionInput);
const ChunkInputs = z.array(ChunkInput);

/** `z.array(SessionInput).parse(sessions)`, without the walk when every session is in its schema's form. */
export function parseSessionInputs(sessions: readonly SessionInput[]): ParsedSession[] {
  return quickOrParse(sessions, quickSession, SessionInputs);
}

/** `z.array(ChunkInput).parse(chunks)`, without the walk when every chunk is in its schema's form. */
export function parseChunkInputs(chunks: readonly ChunkInput[]): ParsedChunk[] {
  return quickOrParse(chunks, quickChunkInput, ChunkInputs);
}

/** Every value through `quick`, or all of them through `schema` as soon as one is not in its form. */
function quickOrParse<Parsed>(values: readonly unknown[], quick: (value: unknown) => Parsed | null, schema: z.ZodType<Parsed[]>): Parsed[] {
  const parsed: Parsed[] = [];
  for (const value of values) {
    const one = quick(value);
    if (one === null) return schema.parse(values);
    parsed.push(one);
  }
  return parsed;
}

type Fields = Record<string, unknown>;

function plainObject(value: unknown): Fields | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null ? (value as Fields) : null;
}

/** Whether every own key of `fields` is one of `known`. */
function onlyKeys(fields: Fields, known: ReadonlySet<string>): boolean {
  for (const key of Object.keys(fields)) if (!known.has(key)) return false;
  return true;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.length > 0;
}

/** A sentinel for "not in the schema's form" (null and undefined are values here). */
const INVALID = Symbol("invalid");

const USAGE_KEYS = new Set(["prompt_tokens", "completion_tokens", "total_tokens"]);

function quickUsage(value: unknown): Usage | typeof INVALID {
  const fields = plainObject(value);
  if (fields === null || !onlyKeys(fields, USAGE_KEYS)) return INVALID;
  const { prompt_tokens, completion_tokens, total_tokens } = fields;
  if (!isCount(prompt_tokens) || !isCount(completion_tokens) || !isCount(total_tokens)) return INVALID;
  return { prompt_tokens, completion_tokens, total_tokens };
}

/** A nullable usage with a null default. */
function quickNullableUsage(value: unknown): Usage | null | typeof INVALID {
  return value === undefined || value === null ? null : quickUsage(value);
}

const LINEAGE_KEYS = new Set(["parent_session_ids", "lineage_operator", "lineage_kind", "lineage_extras"]);
const LINEAGE_KIND_SET: ReadonlySet<string> = new Set(LINEAGE_KINDS);

function quickLineage(value: unknown): Lineage | typeof INVALID {
  const fields = plainObject(value);
  if (fields === null || !onlyKeys(fields, LINEAGE_KEYS)) return INVALID;
  const { parent_session_ids: parents, lineage_operator: operator, lineage_kind: kind, lineage_extras: extras } = fields;
  if (!Array.isArray(parents) || !parents.every((id) => typeof id === "string")) return INVALID;
  if (typeof operator !== "string" || typeof kind !== "string" || !LINEAGE_KIND_SET.has(kind)) return INVALID;
  if (!Array.isArray(extras) || !extras.every((pair) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === "string")) return INVALID;
  return {
    parent_session_ids: [...parents] as string[],
    lineage_operator: operator,
    lineage_kind: kind as Lineage["lineage_kind"],
    lineage_extras: (extras as Array<[string, unknown]>).map(([key, extra]) => [key, extra] as [string, unknown]),
  };
}

const PLACEMENT_KEYS = new Set(["backend", "spec"]);

/** A placement without a sandbox spec (a spec has defaults of its own: the schema parses it). */
function quickPlacement(value: unknown): ParsedSession["placement"] | typeof INVALID {
  const fields = plainObject(value);
  if (fields === null || !onlyKeys(fields, PLACEMENT_KEYS) || !("backend" in fields) || fields.spec !== null) return INVALID;
  const backend = fields.backend;
  if (backend !== null && typeof backend !== "string") return INVALID;
  return { backend, spec: null };
}

const BASE_KEYS = new Set(["sessionId", "chunkCount"]);

function quickBase(value: unknown): ParsedSession["base"] | typeof INVALID {
  if (value === undefined || value === null) return null;
  const fields = plainObject(value);
  if (fields === null || !onlyKeys(fields, BASE_KEYS)) return INVALID;
  const { sessionId, chunkCount } = fields;
  if (!isNonEmptyString(sessionId) || !isCount(chunkCount) || chunkCount === 0) return INVALID;
  return { sessionId, chunkCount };
}

const SESSION_KEYS = new Set(["id", "nodeId", "lineage", "placement", "usage", "ownUsage", "chunkCount", "inheritedChunkCount", "base", "status", "error"]);

function quickSession(value: unknown): ParsedSession | null {
  const fields = plainObject(value);
  if (fields === null || !onlyKeys(fields, SESSION_KEYS)) return null;
  const { id, nodeId, chunkCount, inheritedChunkCount, status, error } = fields;
  if (!isNonEmptyString(id) || !isCount(chunkCount)) return null;
  if (nodeId !== undefined && nodeId !== null && !isNonEmptyString(nodeId)) return null;
  if (inheritedChunkCount !== undefined && !isCount(inheritedChunkCount)) return null;
  if (status !== undefined && status !== "ok" && status !== "failed") return null;
  if (error !== undefined && error !== null && typeof error !== "string") return null;
  const lineage = quickLineage(fields.lineage);
  const placement = quickPlacement(fields.placement);
  const usage = quickNullableUsage(fields.usage);
  const ownUsage = quickNullableUsage(fields.ownUsage);
  const base = quickBase(fields.base);
  if (lineage === INVALID || placement === INVALID || usage === INVALID || ownUsage === INVALID || base === INVALID) return null;
  return {
    id,
    nodeId: nodeId ?? null,
    lineage,
    placement,
    usage,
    ownUsage,
    chunkCount,
    inheritedChunkCount: inheritedChunkCount ?? 0,
    base,
    status: status ?? "ok",
    error: error ?? null,
  };
}

const TOOL_CALL_KEYS = new Set(["id", "type", "function"]);
const FUNCTION_KEYS = new Set(["name", "arguments"]);

function quickToolCall(value: unknown): ToolCall | typeof INVALID {
  const fields = plainObject(value);
  if (fields === null || !onlyKeys(fields, TOOL_CALL_KEYS)) return INVALID;
  const call = plainObject(fields.function);
  if (typeof fields.id !== "string" || typeof fields.type !== "string" || call === null || !onlyKeys(call, FUNCTION_KEYS)) return INVALID;
  if (typeof call.name !== "string" || typeof call.arguments !== "string") return INVALID;
  return { id: fields.id, type: fields.type, function: { name: call.name, arguments: call.arguments } };
}

const TEXT_KEYS = new Set(["content"]);
const ASSISTANT_KEYS = new Set(["content", "tool_calls"]);
const TOOL_RESULT_KEYS = new Set(["tool_call_id", "name", "content"]);

/** The payload of a system, user, assistant or tool_result chunk (memory and route chunks go through the schema). */
function quickPayload(kind: unknown, value: unknown): Chunk["payload"] | typeof INVALID {
  const fields = plainObject(value);
  if (fields === null) return INVALID;
  if (kind === "system" || kind === "user") {
    return onlyKeys(fields, TEXT_KEYS) && typeof fields.content === "string" ? { content: fields.content } : INVALID;
  }
  if (kind === "assistant") {
    if (!onlyKeys(fields, ASSISTANT_KEYS)) return INVALID;
    const { content, tool_calls: toolCalls } = fields;
    if (content !== null && typeof content !== "string") return INVALID;
    if (toolCalls === null) return { content, tool_calls: null };
    if (!Array.isArray(toolCalls)) return INVALID;
    const calls: ToolCall[] = [];
    for (const call of toolCalls) {
      const quick = quickToolCall(call);
      if (quick === INVALID) return INVALID;
      calls.push(quick);
    }
    return { content, tool_calls: calls };
  }
  if (kind === "tool_result") {
    if (!onlyKeys(fields, TOOL_RESULT_KEYS)) return INVALID;
    const { tool_call_id: toolCallId, name, content } = fields;
    return typeof toolCallId === "string" && typeof name === "string" && typeof content === "string" ? { tool_call_id: toolCallId, name, content } : INVALID;
  }
  return INVALID;
}

/** Meta keys the quick path takes; tool evidence goes through the schema. */
const META_KEYS = new Set(["at", "producer", "usage", "model", "latency_ms", "source_session_id"]);

function quickMeta(value: unknown): Chunk["meta"] | typeof INVALID {
  const fields = plainObject(value);
  if (fields === null || !onlyKeys(fields, META_KEYS) || typeof fields.at !== "string") return INVALID;
  const { producer, model, latency_ms: latency, source_session_id: source } = fields;
  if (producer !== undefined && typeof producer !== "string") return INVALID;
  if (model !== undefined && typeof model !== "string") return INVALID;
  if (latency !== undefined && !(typeof latency === "number" && Number.isFinite(latency) && latency >= 0)) return INVALID;
  if (source !== undefined && typeof source !== "string") return INVALID;
  const usage = fields.usage === undefined ? undefined : quickUsage(fields.usage);
  if (usage === INVALID) return INVALID;
  // In the schema's key order; absent keys stay absent.
  const meta: Chunk["meta"] = { at: fields.at };
  if (producer !== undefined) meta.producer = producer;
  if (usage !== undefined) meta.usage = usage;
  if (model !== undefined) meta.model = model;
  if (latency !== undefined) meta.latency_ms = latency;
  if (source !== undefined) meta.source_session_id = source;
  return meta;
}

const CHUNK_KEYS = new Set(["kind", "payload", "meta"]);
const CHUNK_INPUT_KEYS = new Set(["sessionId", "index", "chunk"]);

function quickChunkInput(value: unknown): ParsedChunk | null {
  const fields = plainObject(value);
  if (fields === null || !onlyKeys(fields, CHUNK_INPUT_KEYS) || !isNonEmptyString(fields.sessionId) || !isCount(fields.index)) return null;
  const chunk = plainObject(fields.chunk);
  if (chunk === null || !onlyKeys(chunk, CHUNK_KEYS)) return null;
  const payload = quickPayload(chunk.kind, chunk.payload);
  const meta = quickMeta(chunk.meta);
  if (payload === INVALID || meta === INVALID) return null;
  return { sessionId: fields.sessionId, index: fields.index, chunk: { kind: chunk.kind, payload, meta } as Chunk };
}
