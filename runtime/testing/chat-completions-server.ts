/**
 * A real HTTP server that speaks the OpenAI Chat Completions wire protocol from a script, for tests, examples
 * and browser tests that must not call a real model. Point any OpenAI-compatible client at `baseURL`.
 *
 * ```ts
 * const server = await startChatCompletionsServer({ script: [
 *   { type: "error", status: 429, headers: { "retry-after": "0" } },
 *   { type: "completion", content: "Hello!", usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } },
 *   { type: "completion", toolCalls: [{ name: "search", arguments: { query: "rath" } }] },
 * ] });
 * // ... new OpenAI({ baseURL: server.baseURL, apiKey: "test" }) ...
 * server.requests[1]?.body; // what the client sent
 * await server.close();
 * ```
 *
 * Routes: `POST /v1/chat/completions` (JSON, or SSE when the body has `stream: true`; a final usage chunk
 * when `stream_options.include_usage`), `GET /v1/models`. Anything else is a 404 with an OpenAI error body.
 */
import type { ServerResponse } from "node:http";
import { startScriptedEndpointServer, type DisconnectReply, type HangReply, type Script } from "./scripted-endpoint-server";
import { pause, splitText, writeJson, type RecordedRequest } from "./scripted-http-server";
import { writeEventStream } from "./server-sent-events";

export type { Script } from "./scripted-endpoint-server";
export type { RecordedRequest } from "./scripted-http-server";

/** Token usage in the wire format. */
export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** A tool call the scripted model makes; object arguments are JSON-encoded, ids default to `call_<request>_<n>`. */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

/** What the server answers to one chat completion request. */
export type ChatCompletionsReply =
  | {
      type: "completion";
      content?: string | null;
      toolCalls?: ScriptedToolCall[];
      /** Defaults to "tool_calls" when there are tool calls, else "stop". */
      finishReason?: "stop" | "length" | "tool_calls" | "content_filter" | "function_call";
      /** Defaults to an estimate (one token per 4 characters); null sends no usage. */
      usage?: WireUsage | null;
      /** Defaults to the request's model. */
      model?: string;
      /** Streaming: characters of content / arguments per chunk (default 4). */
      chunkSize?: number;
      /** Streaming: pause between chunks in ms (default 0, which still yields between writes). */
      chunkDelayMs?: number;
      /** Wait before answering at all, in ms. */
      delayMs?: number;
      /** Streaming: destroy the connection after this many chunks, to simulate a broken stream. */
      disconnectAfterChunks?: number;
    }
  | {
      type: "error";
      status: number;
      /** The `error.message` of the OpenAI error body. */
      message?: string;
      errorType?: string;
      code?: string | null;
      headers?: Record<string, string>;
      /** Replaces the whole body when given. */
      body?: unknown;
    }
  | HangReply
  | DisconnectReply;

/** Options of {@link startChatCompletionsServer}. */
export interface ChatCompletionsServerOptions {
  script: Script<ChatCompletionsReply>;
  /** Model ids listed by `GET /v1/models` (default `["scripted-model"]`). */
  models?: string[];
}

/** A running Chat Completions server. */
export interface ChatCompletionsServer {
  /** `http://127.0.0.1:<port>/v1`, the value for OpenAI clients' `baseURL` / `OPENAI_BASE_URL`. */
  baseURL: string;
  origin: string;
  /** Every request received (including `GET /v1/models`), in order. */
  requests: RecordedRequest[];
  /** Only the `POST /v1/chat/completions` requests, in order. */
  completionRequests(): RecordedRequest[];
  close(): Promise<void>;
}

/** Starts a scripted Chat Completions server on 127.0.0.1 with a free port. */
export async function startChatCompletionsServer(options: ChatCompletionsServerOptions): Promise<ChatCompletionsServer> {
  const models = options.models ?? ["scripted-model"];
  const server = await startScriptedEndpointServer({
    path: "/v1/chat/completions",
    script: options.script,
    modelList: { object: "list", data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "rath-test" })) },
    errorBody: (kind, message) => (kind === "not_found" ? openAIError(message, "invalid_request_error", "not_found") : openAIError(message, "server_error", null)),
    answer,
  });
  return {
    baseURL: `${server.origin}/v1`,
    origin: server.origin,
    requests: server.requests,
    completionRequests: () => server.endpointRequests(),
    close: () => server.close(),
  };
}

function openAIError(message: string, type: string, code: string | null): unknown {
  return { error: { message, type, param: null, code } };
}

interface RequestBody {
  model?: unknown;
  stream?: unknown;
  stream_options?: { include_usage?: unknown } | null;
  messages?: unknown;
}

type CompletionReply = Extract<ChatCompletionsReply, { type: "completion" }>;

async function answer(reply: Exclude<ChatCompletionsReply, HangReply | DisconnectReply>, request: RecordedRequest, index: number, response: ServerResponse): Promise<void> {
  switch (reply.type) {
    case "error":
      writeJson(response, reply.status, reply.body ?? openAIError(reply.message ?? `scripted error ${reply.status}`, reply.errorType ?? "server_error", reply.code ?? null), reply.headers);
      return;
    case "completion": {
      if (reply.delayMs) await pause(reply.delayMs);
      const body = (request.body ?? {}) as RequestBody;
      const completion = buildCompletion(reply, body, index);
      if (body.stream === true) await streamCompletion(reply, completion, body.stream_options?.include_usage === true, response);
      else writeJson(response, 200, completionJson(completion));
      return;
    }
  }
}

interface BuiltCompletion {
  id: string;
  model: string;
  content: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason: string;
  usage: WireUsage | null;
}

function buildCompletion(reply: CompletionReply, body: RequestBody, index: number): BuiltCompletion {
  const toolCalls = (reply.toolCalls ?? []).map((call, position) => ({
    id: call.id ?? `call_${index + 1}_${position + 1}`,
    name: call.name,
    arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
  }));
  const content = reply.content === undefined ? (toolCalls.length > 0 ? null : "") : reply.content;
  const promptCharacters = JSON.stringify(body.messages ?? []).length;
  const completionCharacters = (content ?? "").length + toolCalls.reduce((sum, call) => sum + call.arguments.length, 0);
  const estimated = { prompt_tokens: Math.ceil(promptCharacters / 4), completion_tokens: Math.ceil(completionCharacters / 4) };
  return {
    id: `chatcmpl-scripted-${index + 1}`,
    model: reply.model ?? (typeof body.model === "string" ? body.model : "scripted-model"),
    content,
    toolCalls,
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
    usage: reply.usage === undefined ? { ...estimated, total_tokens: estimated.prompt_tokens + estimated.completion_tokens } : reply.usage,
  };
}

function completionJson(completion: BuiltCompletion): unknown {
  return {
    id: completion.id,
    object: "chat.completion",
    created: 0,
    model: completion.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: completion.content,
          refusal: null,
          ...(completion.toolCalls.length > 0
            ? { tool_calls: completion.toolCalls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } })) }
            : {}),
        },
        finish_reason: completion.finishReason,
        logprobs: null,
      },
    ],
    ...(completion.usage === null ? {} : { usage: completion.usage }),
  };
}

async function streamCompletion(reply: CompletionReply, completion: BuiltCompletion, includeUsage: boolean, response: ServerResponse): Promise<void> {
  const size = reply.chunkSize ?? 4;
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): unknown => ({
    id: completion.id,
    object: "chat.completion.chunk",
    created: 0,
    model: completion.model,
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
  });
  const chunks: unknown[] = [chunk({ role: "assistant", content: "" })];
  if (completion.content) for (const piece of splitText(completion.content, size)) chunks.push(chunk({ content: piece }));
  completion.toolCalls.forEach((call, position) => {
    chunks.push(chunk({ tool_calls: [{ index: position, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }));
    for (const piece of splitText(call.arguments, size)) chunks.push(chunk({ tool_calls: [{ index: position, function: { arguments: piece } }] }));
  });
  chunks.push(chunk({}, completion.finishReason));
  if (includeUsage && completion.usage !== null) {
    chunks.push({ id: completion.id, object: "chat.completion.chunk", created: 0, model: completion.model, choices: [], usage: completion.usage });
  }
  await writeEventStream(
    response,
    chunks.map((data) => ({ data })),
    { delayMs: reply.chunkDelayMs ?? 0, disconnectAfter: reply.disconnectAfterChunks, finalData: "[DONE]" },
  );
}
