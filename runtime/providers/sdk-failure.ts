import { parseRetryAfter, type ProviderFailure } from "./retry";

/**
 * Describes an error that is none of an SDK's own error classes: a DOM `AbortError` counts as aborted, anything
 * else is a failure that another attempt would not mend.
 */
export function describeNonSdkError(error: unknown): ProviderFailure {
  if (error instanceof Error && error.name === "AbortError") return { connection: false, aborted: true, message: "aborted" };
  return { connection: false, aborted: false, retryable: false, message: error instanceof Error ? error.message : String(error) };
}

/** The `retryAfterMs` field of a {@link ProviderFailure} read from response headers, or no field when absent. */
export function retryAfterField(headers: Headers | undefined): { retryAfterMs?: number } {
  const value = parseRetryAfter(headers);
  return value === undefined ? {} : { retryAfterMs: value };
}
