import type { CompletionResult } from "./completion-result";
import { withRetry, type ProviderFailure, type RetryPolicy } from "./retry";
import type { CompleteOptions, ModelRequest, ModelResponse, Provider } from "./types";

/**
 * One request to the model through an adapter's SDK: streams through `options.onDelta` when given, passes
 * `options.signal` to the SDK, and throws the SDK's own errors.
 */
export type ProviderAttempt = (request: ModelRequest, model: string, options: CompleteOptions) => Promise<CompletionResult>;

/** What {@link createRetryingProvider} needs from an adapter. */
export interface RetryingProviderOptions {
  name: string;
  kind: Provider["kind"];
  defaultModel: string;
  /** Retries after the first attempt; wins over `retry.maxRetries`. */
  maxRetries?: number;
  retry?: RetryPolicy;
  /** Values (API keys, header values) removed from every error message. */
  secrets: string[];
  /** Turns whatever the SDK threw into a {@link ProviderFailure}. */
  describe: (error: unknown) => ProviderFailure;
  attempt: ProviderAttempt;
}

/**
 * Builds a Provider around an adapter's attempt: picks the model, retries with {@link withRetry}, never retries
 * once a delta reached the caller, and measures the latency over all attempts.
 */
export function createRetryingProvider(options: RetryingProviderOptions): Provider {
  const { name, kind, defaultModel, secrets } = options;
  const policy: RetryPolicy = { ...options.retry, ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }) };
  return {
    name,
    kind,
    defaultModel,
    async complete(request: ModelRequest, completeOptions: CompleteOptions = {}): Promise<ModelResponse> {
      const model = request.model || defaultModel;
      const started = performance.now();
      let emitted = false;
      const onDelta = completeOptions.onDelta;
      const attemptOptions: CompleteOptions = onDelta
        ? {
            ...completeOptions,
            onDelta: (text) => {
              emitted = true;
              onDelta(text);
            },
          }
        : completeOptions;
      const result = await withRetry(() => options.attempt(request, model, attemptOptions), {
        provider: name,
        policy,
        options: completeOptions,
        secrets,
        describe: (error) => {
          const failure = options.describe(error);
          // Deltas already shown to the caller cannot be taken back, so a broken stream is not retried.
          return emitted ? { ...failure, retryable: false } : failure;
        },
      });
      return { ...result, latencyMs: Math.round(performance.now() - started) };
    },
  };
}
