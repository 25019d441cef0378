import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from "openai";
import type { CompletionResult } from "./completion-result";
import { fromOpenAICompletion, OpenAIStreamAccumulator, toOpenAIRequest } from "./openai-wire";
import { RathError } from "../errors";
import { parseRetryAfter, withRetry, type ProviderFailure, type RetryPolicy } from "./retry";
import type { CompleteOptions, ModelRequest, ModelResponse, Provider } from "./types";

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
  const name = options.name ?? "openai";
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
  const defaultModel = options.defaultModel ?? OPENAI_DEFAULT_MODEL;
  const policy: RetryPolicy = { ...options.retry, ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }) };
  const secrets = [apiKey, ...Object.values(options.headers ?? {})];

  async function attempt(request: ModelRequest, model: string, completeOptions: CompleteOptions, state: { emitted: boolean }): Promise<CompletionResult> {
    const body = toOpenAIRequest(request, model);
    const requestOptions = completeOptions.signal ? { signal: completeOptions.signal } : {};
    const onDelta = completeOptions.onDelta;
    if (!onDelta) {
      const completion = await client.chat.completions.create({ ...body, stream: false }, requestOptions);
      return fromOpenAICompletion(completion, model);
    }
    const stream = await client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, requestOptions);
    const accumulator = new OpenAIStreamAccumulator();
    for await (const chunk of stream) {
      const delta = accumulator.add(chunk);
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
    kind: "openai",
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
          const failure = describeOpenAIError(error);
          // Deltas already shown to the caller cannot be taken back, so a broken stream is not retried.
          return state.emitted ? { ...failure, retryable: false } : failure;
        },
      });
      return { ...result, latencyMs: Math.round(performance.now() - started) };
    },
  };
}

/** Turns an error thrown by the openai SDK into a {@link ProviderFailure}. */
export function describeOpenAIError(error: unknown): ProviderFailure {
  if (error instanceof APIUserAbortError) return { connection: false, aborted: true, message: "aborted" };
  if (error instanceof APIConnectionError) return { connection: true, aborted: false, message: error.message || "connection error" };
  if (error instanceof APIError) {
    const body = error.error as { message?: unknown } | undefined;
    const serverMessage = typeof body?.message === "string" ? body.message : error.message.replace(/^\d{3}\s+/, "");
    return {
      ...(error.status === undefined ? {} : { status: error.status }),
      connection: false,
      aborted: false,
      message: serverMessage || "no error message",
      ...retryAfter(error.headers),
    };
  }
  if (error instanceof Error && error.name === "AbortError") return { connection: false, aborted: true, message: "aborted" };
  return { connection: false, aborted: false, retryable: false, message: error instanceof Error ? error.message : String(error) };
}

function retryAfter(headers: Headers | undefined): { retryAfterMs?: number } {
  const value = parseRetryAfter(headers);
  return value === undefined ? {} : { retryAfterMs: value };
}
