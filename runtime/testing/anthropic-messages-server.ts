/**
 * A real HTTP server that speaks the Anthropic Messages wire protocol from a script, for tests and examples
 * that must not call the real API. Point `new Anthropic({ baseURL: server.baseURL, apiKey })` at it.
 *
 * ```ts
 * const server = await startAnthropicMessagesServer({ script: [
 *   { type: "error", status: 529, errorType: "overloaded_error", message: "Overloaded" },
 *   { type: "message", text: "Hello!", usage: { input_tokens: 5, output_tokens: 2 } },
 *   { type: "message", toolUses: [{ name: "search", input: { query: "rath" } }] },
 * ] });
 * ```
 *
 * Routes: `POST /v1/messages` (JSON, or an SSE event stream when the body has `stream: true`:
 * message_start, content_block_start / content_block_delta / content_block_stop per block, message_delta with
 * the stop reason and output usage, message_stop), `GET /v1/models`. Anything else is a 404 error body.
 */
import type { ServerResponse } from "node:http";
import { startScriptedEndpointServer, type DisconnectReply, type HangReply, type Script } from "./scripted-endpoint-server";
import { pause, splitText, writeJson, type RecordedRequest } from "./scripted-http-server";
import { writeEventStream, type ServerSentEvent } from "./server-sent-events";

export type { Script } from "./scripted-endpoint-server";
export type { RecordedRequest } from "./scripted-http-server";

/** Anthropic token usage in the wire format. */
export interface AnthropicWireUsage {
  input_tokens: number;
  output_tokens: number;
}

/** A tool the scripted model calls; ids default to `toolu_<request>_<n>`. */
export interface ScriptedToolUse {
  id?: string;
  name: string;
  input: Record<string, unknown>;
}

/** What the server answers to one `POST /v1/messages`. */
export type AnthropicMessagesReply =
  | {
      type: "message";
      /** The text block (omitted when absent or ""). */
      text?: string;
      toolUses?: ScriptedToolUse[];
      /** Defaults to "tool_use" when there are tool uses, else "end_turn". */
      stopReason?: "end_turn" | "max_tokens" | "stop_sequence" | "tool_use" | "pause_turn" | "refusal";
      /** Defaults to an estimate (one token per 4 characters). */
      usage?: AnthropicWireUsage;
      /** Defaults to the request's model. */
      model?: string;
      /** Streaming: characters of text / input JSON per delta (default 4). */
      chunkSize?: number;
      chunkDelayMs?: number;
      delayMs?: number;
      /** Streaming: destroy the connection after this many events. */
      disconnectAfterEvents?: number;
    }
  | {
      type: "error";
      status: number;
      message?: string;
      /** Anthropic error type, e.g. "rate_limit_error", "overloaded_error" (default "api_error"). */
      errorType?: string;
      headers?: Record<string, string>;
      body?: unknown;
    }
  | HangReply
  | DisconnectReply;

/** Options of {@link startAnthropicMessagesServer}. */
export interface AnthropicMessagesServerOptions {
  script: Script<AnthropicMessagesReply>;
  /** Model ids listed by `GET /v1/models` (default `["scripted-claude"]`). */
  models?: string[];
}

/** A running Messages server. */
export interface AnthropicMessagesServer {
  /** `http://127.0.0.1:<port>` (the SDK appends `/v1/messages`), the value for `ANTHROPIC_BASE_URL`. */
  baseURL: string;
  requests: RecordedRequest[];
  /** Only the `POST /v1/messages` requests, in order. */
  messageRequests(): RecordedRequest[];
  close(): Promise<void>;
}

/** Starts a scripted Anthropic Messages server on 127.0.0.1 with a free port. */
export async function startAnthropicMessagesServer(options: AnthropicMessagesServerOptions): Promise<AnthropicMessagesServer> {
  const models = options.models ?? ["scripted-claude"];
  const server = await startScriptedEndpointServer({
    path: "/v1/messages",
    script: options.script,
    modelList: {
      data: models.map((id) => ({ id, type: "model", display_name: id, created_at: "2026-01-01T00:00:00Z" })),
      has_more: false,
      first_id: models[0] ?? null,
      last_id: models[models.length - 1] ?? null,
    },
    errorBody: (kind, message) => anthropicError(kind === "not_found" ? "not_found_error" : "api_error", message),
    answer,
  });
  return {
    baseURL: server.origin,
    requests: server.requests,
    messageRequests: () => server.endpointRequests(),
    close: () => server.close(),
  };
}

function anthropicError(type: string, message: string): unknown {
  return { type: "error", error: { type, message } };
}

interface RequestBody {
  model?: unknown;
  stream?: unknown;
  messages?: unknown;
  system?: unknown;
}

type MessageReply = Extract<AnthropicMessagesReply, { type: "message" }>;

async function answer(reply: Exclude<AnthropicMessagesReply, HangReply | DisconnectReply>, request: RecordedRequest, index: number, response: ServerResponse): Promise<void> {
  switch (reply.type) {
    case "error":
      writeJson(response, reply.status, reply.body ?? anthropicError(reply.errorType ?? "api_error", reply.message ?? `scripted error ${reply.status}`), reply.headers);
      return;
    case "message": {
      if (reply.delayMs) await pause(reply.delayMs);
      const body = (request.body ?? {}) as RequestBody;
      const message = buildMessage(reply, body, index);
      if (body.stream === true) await streamMessage(reply, message, response);
      else writeJson(response, 200, message);
      return;
    }
  }
}

type WireBlock = { type: "text"; text: string; citations: null } | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

interface WireMessage {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: WireBlock[];
  stop_reason: string;
  stop_sequence: null;
  usage: AnthropicWireUsage & { cache_creation_input_tokens: null; cache_read_input_tokens: null };
}

function buildMessage(reply: MessageReply, body: RequestBody, index: number): WireMessage {
  const content: WireBlock[] = [];
  if (reply.text) content.push({ type: "text", text: reply.text, citations: null });
  (reply.toolUses ?? []).forEach((use, position) =>
    content.push({ type: "tool_use", id: use.id ?? `toolu_${index + 1}_${position + 1}`, name: use.name, input: use.input }),
  );
  const inputCharacters = JSON.stringify([body.system ?? "", body.messages ?? []]).length;
  const outputCharacters = content.reduce((sum, block) => sum + (block.type === "text" ? block.text.length : JSON.stringify(block.input).length), 0);
  const usage = reply.usage ?? { input_tokens: Math.ceil(inputCharacters / 4), output_tokens: Math.ceil(outputCharacters / 4) };
  return {
    id: `msg_scripted_${index + 1}`,
    type: "message",
    role: "assistant",
    model: reply.model ?? (typeof body.model === "string" ? body.model : "scripted-claude"),
    content,
    stop_reason: reply.stopReason ?? ((reply.toolUses ?? []).length > 0 ? "tool_use" : "end_turn"),
    stop_sequence: null,
    usage: { ...usage, cache_creation_input_tokens: null, cache_read_input_tokens: null },
  };
}

async function streamMessage(reply: MessageReply, message: WireMessage, response: ServerResponse): Promise<void> {
  const size = reply.chunkSize ?? 4;
  const events: ServerSentEvent[] = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } },
      },
    },
    { event: "ping", data: { type: "ping" } },
  ];
  message.content.forEach((block, index) => {
    if (block.type === "text") {
      events.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "text", text: "", citations: null } } });
      for (const piece of splitText(block.text, size)) {
        events.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } } });
      }
    } else {
      events.push({ event: "content_block_start", data: { type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } } });
      for (const piece of splitText(JSON.stringify(block.input), size)) {
        events.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } } });
      }
    }
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  });
  events.push({
    event: "message_delta",
    data: { type: "message_delta", delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: message.usage.output_tokens } },
  });
  events.push({ event: "message_stop", data: { type: "message_stop" } });
  await writeEventStream(response, events, { delayMs: reply.chunkDelayMs ?? 0, disconnectAfter: reply.disconnectAfterEvents });
}
