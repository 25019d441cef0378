import Anthropic, { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
import { AnthropicStreamAccumulator, fromAnthropicMessage, toAnthropicRequest } from "./anthropic-wire";
import type { CompletionResult } from "./completion-result";
import { readCompletionStream } from "./completion-stream";
import type { ProviderFailure, RetryPolicy } from "./retry";
import { createRetryingProvider } from "./retrying-provider";
import { describeSdkError } from "./sdk-failure";
import type { CompleteOptions, ModelRequest, Provider } from "./types";
import { requestSignal } from "./request-signal";

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
  const apiKey = options.apiKey ?? PLACEHOLDER_API_KEY;
  // An explicit apiKey and baseURL keep the SDK from reading ambient environment variables or profile files.
  const client = new Anthropic({
    apiKey,
    baseURL: options.baseURL ?? ANTHROPIC_DEFAULT_BASE_URL,
    maxRetries: 0,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
  });

  async function attempt(request: ModelRequest, model: string, { onDelta, signal }: CompleteOptions): Promise<CompletionResult> {
    const body = toAnthropicRequest(request, model);
    const scope = requestSignal(signal);
    const requestOptions = scope.signal ? { signal: scope.signal } : {};
    try {
      if (!onDelta) {
        const message = await client.messages.create({ ...body, stream: false }, requestOptions);
        return fromAnthropicMessage(message, model);
      }
      const stream = await client.messages.create({ ...body, stream: true }, requestOptions);
      return await readCompletionStream(stream, new AnthropicStreamAccumulator(), model, onDelta, scope.signal);
    } finally {
      scope.release();
    }
  }

  return createRetryingProvider({
    name: options.name ?? "anthropic",
    kind: "anthropic",
    defaultModel: options.defaultModel ?? ANTHROPIC_DEFAULT_MODEL,
    maxRetries: options.maxRetries,
    retry: options.retry,
    secrets: [apiKey, ...Object.values(options.headers ?? {})],
    describe: describeAnthropicError,
    attempt,
  });
}

/** Turns an error thrown by the Anthropic SDK into a {@link ProviderFailure}. */
export function describeAnthropicError(error: unknown): ProviderFailure {
  return describeSdkError(error, { userAbort: APIUserAbortError, connection: APIConnectionError, api: APIError }, (apiError) => {
    const message = apiError.apiMessage ?? (apiError.message.replace(/^\d{3}\s+/, "") || "no error message");
    return {
      message: apiError.type ? `${apiError.type}: ${message}` : message,
      // An `error` event inside a stream has no HTTP status; its type says whether it is transient.
      ...(apiError.status === undefined ? { retryable: apiError.type !== null && TRANSIENT_STREAM_ERROR_TYPES.has(apiError.type) } : {}),
    };
  });
}
