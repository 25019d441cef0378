/**
 * A signal for one SDK request that aborts when the caller's does. The OpenAI and Anthropic SDKs add an abort
 * listener to the signal they are given and never remove it, so a run that passes its one signal to every model call
 * kept one listener (and the SDK's controller) per call for the run's lifetime — and Node warned
 * "MaxListenersExceededWarning: 11 abort listeners added to [AbortSignal]". The SDK gets this short-lived signal
 * instead; `release` unlinks it from the caller's once the request is over.
 */
export interface RequestSignal {
  signal: AbortSignal | undefined;
  release: () => void;
}

/** A request's own signal linked to `parent` (none when there is no parent). */
export function requestSignal(parent: AbortSignal | undefined): RequestSignal {
  if (parent === undefined) return { signal: undefined, release: () => undefined };
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, release: () => undefined };
  }
  const forward = (): void => controller.abort(parent.reason);
  parent.addEventListener("abort", forward, { once: true });
  return { signal: controller.signal, release: () => parent.removeEventListener("abort", forward) };
}
