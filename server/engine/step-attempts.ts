/**
 * Runs one step with per-attempt timeouts and retries with exponential backoff. Each attempt gets a fresh
 * recorder and effect hooks; a failed attempt is reported (the engine stores `run.step.attempt.failed`) and
 * leaves nothing else behind, except settled effects, which the next attempt replays.
 */
import { isRathError, RathError } from "../../runtime/errors";

/** How a step's attempts are bounded. */
export interface AttemptPolicy {
  /** Retries after the first attempt (attempts = retries + 1). */
  retries: number;
  /** Timeout of one attempt in ms, or undefined for none. */
  timeoutMs: number | undefined;
  /** Backoff before retry n (1-based) is min(maxBackoffMs, baseBackoffMs * 2^(n-1)). */
  baseBackoffMs: number;
  maxBackoffMs: number;
}

/** Why an attempt failed, as stored in events and run errors. */
export interface AttemptFailure {
  code: string;
  message: string;
  retryable: boolean;
}

/** The result of running a step's attempts. */
export type AttemptsResult<T> =
  | { kind: "ok"; value: T; attempts: number }
  | { kind: "failed"; failure: AttemptFailure; attempts: number }
  | { kind: "aborted"; attempts: number };

/** Error codes that no retry can fix: the workflow or its configuration is wrong, or the budget is spent. */
const NON_RETRYABLE_CODES: ReadonlySet<string> = new Set(["budget_exceeded"]);

/** Classifies an attempt's error; `timedOut` when the attempt's own timeout fired. */
export function describeFailure(error: unknown, timedOut: boolean, timeoutMs: number | undefined): AttemptFailure {
  if (timedOut) return { code: "step_timeout", message: `the step did not finish within ${timeoutMs} ms`, retryable: true };
  if (isRathError(error)) {
    return { code: error.code, message: error.message, retryable: !error.isUserError && !NON_RETRYABLE_CODES.has(error.code) };
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { code: "internal", message, retryable: true };
}

/** The backoff before retry `retry` (1-based). */
export function backoffMs(policy: AttemptPolicy, retry: number): number {
  return Math.min(policy.maxBackoffMs, policy.baseBackoffMs * 2 ** (retry - 1));
}

/** Settles with `promise`, or rejects as soon as `signal` aborts (the work may go on in the background). */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new RathError("aborted", "the step was aborted before it finished"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new RathError("aborted", "the step was aborted before it finished"));
    signal.addEventListener("abort", onAbort, { once: true });
    const stopListening = (): void => signal.removeEventListener("abort", onAbort);
    // Two reactions on the promise itself: no `finally` chain (its own promise and callbacks) per step.
    promise.then(resolve, reject);
    promise.then(stopListening, stopListening);
  });
}

/** Waits `ms`, resolving early (with false) when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs `attempt(n, signal)` until it succeeds, fails for good, or `runSignal` aborts. `onFailure` is called
 * before each retry (to store the event); when it throws, the error propagates (e.g. the lease was lost).
 */
export async function runAttempts<T>(
  policy: AttemptPolicy,
  runSignal: AbortSignal,
  attempt: (number: number, signal: AbortSignal) => Promise<T>,
  onFailure: (number: number, failure: AttemptFailure, retryInMs: number) => Promise<void>,
): Promise<AttemptsResult<T>> {
  const attempts = policy.retries + 1;
  for (let number = 1; ; number += 1) {
    let timedOut = false;
    // Without a timeout the attempt's signal is the run's (a combined signal costs a listener pair per step, and an
    // AbortController is made only for a timeout).
    const timeout = policy.timeoutMs === undefined ? undefined : new AbortController();
    const timer =
      timeout === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            timeout.abort(new RathError("aborted", `step timed out after ${policy.timeoutMs} ms`));
          }, policy.timeoutMs);
    const signal = timeout === undefined ? runSignal : AbortSignal.any([runSignal, timeout.signal]);
    try {
      const value = await raceSignal(attempt(number, signal), signal);
      return { kind: "ok", value, attempts: number };
    } catch (error) {
      if (runSignal.aborted) return { kind: "aborted", attempts: number };
      const failure = describeFailure(error, timedOut, policy.timeoutMs);
      if (!failure.retryable || number >= attempts) {
        await onFailure(number, failure, -1);
        return { kind: "failed", failure, attempts: number };
      }
      const wait = backoffMs(policy, number);
      await onFailure(number, failure, wait);
      if (!(await sleep(wait, runSignal))) return { kind: "aborted", attempts: number };
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  }
}
