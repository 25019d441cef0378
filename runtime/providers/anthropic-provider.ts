import Anthropic, { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
import { AnthropicStreamAccumulator, fromAnthropicMessage, toAnthropicRequest } from "./anthropic-wire";
import type { CompletionResult } from "./completion-result";
import { RathError } from "../errors";
import { parseRetryAfter, withRetry, type ProviderFailure, type RetryPolicy } from "./retry";
import type { CompleteOptions, ModelRequest, ModelResponse, Provider } from "./types";

/** The public Anthropic endpoint, used when no base URL is configured. */
export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";
/** Model used when neither the request nor the configuration names one. */
export const ANTHROPIC_DEFAULT_MODEL = "claude-sonnet-4-5";

/** Sent as the key to gateways that need none, so the SDK never looks for credentials elsewhere. */
const PLACEHOLDER_API_KEY = "no-key-configured";

/** Error types that an SSE `error` event can carry and that a fresh attempt may not hit. */
const TRANSIENT_STREAM_ERROR_TYPES = new Set(["overloaded_error", "rate_limit_error", "api_error", "timeout_error"]);

/** Options of {@link createAnthropicProvider}. */
export interface AnthropicProviderOptions {
  apiKey?: string;
  /** Default api.anthropic.com; the SDK appends `/v1/messages`. */
  baseURL?: string;
  defaultModel?: string;
  /** Retries after the first attempt (default 3). The SDK's own retries are always off. */
  maxRetries?: number;
  /** Per-attempt timeout in ms. */
  timeoutMs?: number;
  /** Display name (default "anthropic"). */
  name?: string;
  /** Backoff tuning and test hooks (random, sleep); `maxRetries` above wins over `retry.maxRetries`. */
  retry?: RetryPolicy;
  headers?: Record<string, string>;
}

/**
 * Creates a Provider for the Anthropic Messages API through the official SDK: converts Chat Completions style
 * messages and tools, streams text deltas when `onDelta` is given, and retries transient failures itself.
 */
export function createAnthropicProvider(options: AnthropicProviderOptions = {}): Provider {
  const name = options.name ?? "anthropic";
  const apiKey = options.apiKey ?? PLACEHOLDER_API_KEY;
  // An explicit apiKey and baseURL keep the SDK from reading ambient environment variables or profile files.
  const client = new Anthropic({
    apiKey,
    baseURL: options.baseURL ?? ANTHROPIC_DEFAULT_BASE_URL,
    maxRetries: 0,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
  });
  const defaultModel = options.defaultModel ?? ANTHROPIC_DEFAULT_MODEL;
  const policy: RetryPolicy = { ...options.retry, ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }) };
  const secrets = [apiKey, ...Object.values(options.headers ?? {})];

  async function attempt(request: ModelRequest, model: string, completeOptions: CompleteOptions, state: { emitted: boolean }): Promise<CompletionResult> {
    const body = toAnthropicRequest(request, model);
    const requestOptions = completeOptions.signal ? { signal: completeOptions.signal } : {};
    const onDelta = completeOptions.onDelta;
    if (!onDelta) {
      const message = await client.messages.create({ ...body, stream: false }, requestOptions);
      return fromAnthropicMessage(message, model);
    }
    const stream = await client.messages.create({ ...body, stream: true }, requestOptions);
    const accumulator = new AnthropicStreamAccumulator();
    for await (const event of stream) {
      const delta = accumulator.add(event);
      if (delta !== "") {
        state.emitted = true;
        onDelta(delta);
      }
    }
    // The SDK ends a stream quietly when it is aborted; a partial answer must not pass for a whole one.
    if (completeOptions.signal?.aborted) throw new RathError("aborted", "the model request was aborted by the caller");
    return accumulator.result(model);
  }

  return {
    name,
    kind: "anthropic",
    defaultModel,
    async complete(request: ModelRequest, completeOptions: CompleteOptions = {}): Promise<ModelResponse> {
      const model = request.model || defaultModel;
      const started = performance.now();
      const state = { emitted: false };
      const result = await withRetry(() => attempt(request, model, completeOptions, state), {
        provider: name,
        policy,
        options: completeOptions,
        secrets,
        describe: (error) => {
          const failure = describeAnthropicError(error);
          // Deltas already shown to the caller cannot be taken back, so a broken stream is not retried.
          return state.emitted ? { ...failure, retryable: false } : failure;
        },
      });
      return { ...result, latencyMs: Math.round(performance.now() - started) };
    },
  };
}

/** Turns an error thrown by the Anthropic SDK into a {@link ProviderFailure}. */
export function describeAnthropicError(error: unknown): ProviderFailure {
  if (error instanceof APIUserAbortError) return { connection: false, aborted: true, message: "aborted" };
  if (error instanceof APIConnectionError) return { connection: true, aborted: false, message: error.message || "connection error" };
  if (error instanceof APIError) {
    const message = error.apiMessage ?? (error.message.replace(/^\d{3}\s+/, "") || "no error message");
    const retryAfterMs = parseRetryAfter(error.headers);
    return {
      ...(error.status === undefined ? {} : { status: error.status }),
      connection: false,
      aborted: false,
      message: error.type ? `${error.type}: ${message}` : message,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      // An `error` event inside a stream has no HTTP status; its type says whether it is transient.
      ...(error.status === undefined ? { retryable: error.type !== null && TRANSIENT_STREAM_ERROR_TYPES.has(error.type) } : {}),
    };
  }
  if (error instanceof Error && error.name === "AbortError") return { connection: false, aborted: true, message: "aborted" };
  return { connection: false, aborted: false, retryable: false, message: error instanceof Error ? error.message : String(error) };
}
