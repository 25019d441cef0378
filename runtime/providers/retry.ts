import { RathError } from "../errors";
import type { CompleteOptions } from "./types";
import { redactSecrets } from "./redact";

/**
 * What a provider adapter learnt from one failed attempt, independent of the SDK that produced it.
 * `status` is the HTTP status when the server answered; `connection` is true when it never did.
 */
export interface ProviderFailure {
  status?: number;
  connection: boolean;
  aborted: boolean;
  /** The server's own error message (or the transport's), never containing request headers. */
  message: string;
  /** Server-requested wait before the next attempt, from `retry-after-ms` / `retry-after`. */
  retryAfterMs?: number;
  /** Set by adapters when an attempt must not be repeated (e.g. a stream that already emitted deltas). */
  retryable?: boolean;
}

/** How many times and how patiently a provider retries; `random` and `sleep` are injectable for tests. */
export interface RetryPolicy {
  /** Retries after the first attempt (so at most `maxRetries + 1` requests). Default 3. */
  maxRetries?: number;
  /** First backoff ceiling in ms; attempt n waits up to `baseDelayMs * 2^n`. Default 500. */
  baseDelayMs?: number;
  /** Cap on any single wait, including a server's Retry-After. Default 30 000. */
  maxDelayMs?: number;
  /** Uniform random number in [0, 1); defaults to Math.random. */
  random?: () => number;
  /** Waits `ms` or rejects when `signal` aborts; defaults to a timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Statuses worth trying again: request timeout, conflict, rate limit and every server error. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** True when another attempt could succeed where this one failed. */
export function isRetryableFailure(failure: ProviderFailure): boolean {
  if (failure.aborted) return false;
  if (failure.retryable !== undefined) return failure.retryable;
  if (failure.connection) return true;
  return failure.status !== undefined && isRetryableStatus(failure.status);
}

/**
 * Reads a server's requested wait: `retry-after-ms` (milliseconds), else `retry-after` as seconds or an
 * HTTP date. Returns undefined when absent or unparsable.
 */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const milliseconds = headers.get("retry-after-ms");
  if (milliseconds !== null && milliseconds.trim() !== "") {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = headers.get("retry-after");
  if (retryAfter === null || retryAfter.trim() === "") return undefined;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * The wait before retry number `attempt` (1-based): full jitter, `random() * min(cap, base * 2^(attempt-1))`,
 * or the server's Retry-After (capped) when it gave one.
 */
export function computeRetryDelay(attempt: number, failure: ProviderFailure, policy: RetryPolicy = {}): number {
  const base = policy.baseDelayMs ?? 500;
  const cap = policy.maxDelayMs ?? 30_000;
  if (failure.retryAfterMs !== undefined) return Math.min(cap, Math.max(0, failure.retryAfterMs));
  const ceiling = Math.min(cap, base * 2 ** (attempt - 1));
  const random = policy.random ?? Math.random;
  return Math.floor(random() * ceiling);
}

/** Waits `ms`, rejecting with RathError("aborted") as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The RathError("aborted") every provider throws when the caller's signal ends a request. */
export function abortedError(): RathError {
  return new RathError("aborted", "the model request was aborted by the caller");
}

/** Context for {@link withRetry}: who is calling (for messages) and which secrets must never show. */
export interface RetryContext {
  provider: string;
  policy?: RetryPolicy;
  options?: Pick<CompleteOptions, "onRetry" | "signal">;
  /** Values (API keys) removed from every error message. */
  secrets?: string[];
  /** Turns whatever an attempt threw into a {@link ProviderFailure}. */
  describe: (error: unknown) => ProviderFailure;
}

/** A short reason for `onRetry` and error messages, e.g. "status 429" or "connection error". */
export function describeReason(failure: ProviderFailure): string {
  if (failure.status !== undefined) return `status ${failure.status}`;
  if (failure.connection) return "connection error";
  return "error";
}

/**
 * Runs `attempt` until it succeeds, retrying retryable failures with backoff. Throws RathError: `aborted` when
 * the signal fires, `provider_unavailable` when the server could not be reached, `provider_error` otherwise.
 */
export async function withRetry<T>(attempt: (attemptNumber: number) => Promise<T>, context: RetryContext): Promise<T> {
  const policy = context.policy ?? {};
  const maxRetries = policy.maxRetries ?? 3;
  const sleep = policy.sleep ?? abortableSleep;
  const signal = context.options?.signal;
  for (let attemptNumber = 0; ; attemptNumber += 1) {
    if (signal?.aborted) throw abortedError();
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      if (error instanceof RathError) throw error;
      const failure = context.describe(error);
      if (failure.aborted || signal?.aborted) throw abortedError();
      const retryable = isRetryableFailure(failure);
      if (!retryable || attemptNumber >= maxRetries) {
        throw toRathError(failure, { provider: context.provider, retries: attemptNumber, retryable, secrets: context.secrets ?? [] });
      }
      const delayMs = computeRetryDelay(attemptNumber + 1, failure, policy);
      context.options?.onRetry?.({ attempt: attemptNumber + 1, delayMs, reason: describeReason(failure) });
      await sleep(delayMs, signal);
    }
  }
}

function toRathError(
  failure: ProviderFailure,
  details: { provider: string; retries: number; retryable: boolean; secrets: string[] },
): RathError {
  const code = failure.status === undefined && failure.connection ? "provider_unavailable" : "provider_error";
  const what = failure.status !== undefined ? `failed with status ${failure.status}` : failure.connection ? "could not reach the server" : "failed";
  const after = details.retries > 0 ? ` after ${details.retries} ${details.retries === 1 ? "retry" : "retries"}` : details.retryable ? "" : " (not retryable)";
  const raw = `provider '${details.provider}' ${what}${after}: ${failure.message}`;
  const message = redactSecrets(raw, { secrets: details.secrets });
  // The SDK error is deliberately not attached as `cause`: its request options can hold the API key.
  return new RathError(code, message, {
    details: { provider: details.provider, status: failure.status ?? null, retries: details.retries },
  });
}
