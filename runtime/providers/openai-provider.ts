import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from "openai";
import type { CompletionResult } from "./completion-result";
import { fromOpenAICompletion, OpenAIStreamAccumulator, toOpenAIRequest } from "./openai-wire";
import { readCompletionStream } from "./completion-stream";
import type { ProviderFailure, RetryPolicy } from "./retry";
import { createRetryingProvider } from "./retrying-provider";
import { describeSdkError } from "./sdk-failure";
import type { CompleteOptions, ModelRequest, Provider } from "./types";
import { requestSignal } from "./request-signal";

/** The public OpenAI endpoint, used when no base URL is configured. */
export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** Model used when neither the request nor the configuration names one. */
export const OPENAI_DEFAULT_MODEL = "gpt-4o-mini";
/** Sent as the key to servers that need none (Ollama, LM Studio, vLLM without --api-key). */
export const PLACEHOLDER_API_KEY = "no-key-configured";

/** Options of {@link createOpenAIProvider}. */
export interface OpenAIProviderOptions {
  /** Optional for local OpenAI-compatible servers; required (in practice) for api.openai.com and Azure. */
  apiKey?: string;
  /** Any OpenAI-compatible endpoint, e.g. `http://localhost:11434/v1` (Ollama). Default api.openai.com. */
  baseURL?: string;
  defaultModel?: string;
  /** Retries after the first attempt (default 3). The SDK's own retries are always off. */
  maxRetries?: number;
  /** Per-attempt timeout in ms (default 600 000, the SDK's). */
  timeoutMs?: number;
  /** Display name (default "openai"). */
  name?: string;
  /** Backoff tuning and test hooks (random, sleep); `maxRetries` above wins over `retry.maxRetries`. */
  retry?: RetryPolicy;
  /** Extra headers on every request (e.g. an OpenRouter referer). */
  headers?: Record<string, string>;
  /**
   * Send the key in this header instead of `Authorization: Bearer` (Azure OpenAI keys go in `api-key`,
   * with baseURL `https://<resource>.openai.azure.com/openai/v1`).
   */
  apiKeyHeader?: string;
}

/**
 * Creates a Provider that talks to any OpenAI-compatible Chat Completions endpoint through the official SDK.
 * Streams (with usage) when `onDelta` is given; retries 408/409/429/5xx and connection errors itself.
 */
export function createOpenAIProvider(options: OpenAIProviderOptions = {}): Provider {
  const apiKey = options.apiKey ?? PLACEHOLDER_API_KEY;
  const client = new OpenAI({
    apiKey,
    baseURL: options.baseURL ?? OPENAI_DEFAULT_BASE_URL,
    maxRetries: 0,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    defaultHeaders: {
      ...options.headers,
      ...(options.apiKeyHeader === undefined ? {} : { [options.apiKeyHeader]: apiKey, Authorization: null }),
    },
    // Keep the SDK from picking up ambient organisation/project settings that the configuration did not name.
    organization: null,
    project: null,
  });

  async function attempt(request: ModelRequest, model: string, { onDelta, signal }: CompleteOptions): Promise<CompletionResult> {
    const body = toOpenAIRequest(request, model);
    const scope = requestSignal(signal);
    const requestOptions = scope.signal ? { signal: scope.signal } : {};
    try {
      if (!onDelta) {
        const completion = await client.chat.completions.create({ ...body, stream: false }, requestOptions);
        return fromOpenAICompletion(completion, model);
      }
      const stream = await client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, requestOptions);
      return await readCompletionStream(stream, new OpenAIStreamAccumulator(), model, onDelta, scope.signal);
    } finally {
      scope.release();
    }
  }

  return createRetryingProvider({
    name: options.name ?? "openai",
    kind: "openai",
    defaultModel: options.defaultModel ?? OPENAI_DEFAULT_MODEL,
    maxRetries: options.maxRetries,
    retry: options.retry,
    secrets: [apiKey, ...Object.values(options.headers ?? {})],
    describe: describeOpenAIError,
    attempt,
  });
}

/** Turns an error thrown by the openai SDK into a {@link ProviderFailure}. */
export function describeOpenAIError(error: unknown): ProviderFailure {
  return describeSdkError(error, { userAbort: APIUserAbortError, connection: APIConnectionError, api: APIError }, (apiError) => {
    const body = apiError.error as { message?: unknown } | undefined;
    const serverMessage = typeof body?.message === "string" ? body.message : apiError.message.replace(/^\d{3}\s+/, "");
    return { message: serverMessage || "no error message" };
  });
}
