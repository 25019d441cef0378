import type { RunContext } from "../context";
import { RathError } from "../errors";
import type { CompleteOptions, ModelRequest, ModelResponse, Provider } from "../providers/types";

/** One completion of a loop's model, reported as events (see `completer`). */
export type Completion = (request: ModelRequest, round: number) => Promise<ModelResponse>;

/**
 * Completions of one component's model in one run, reported as events: `model.request.started`, a `model.delta`
 * per streamed piece, `model.retry.scheduled` per retry and `model.response.completed`. Deltas are always
 * requested (the assistant chunk is still appended whole by the caller). The provider's options and callbacks
 * are made once here, not once per round (`model` is the model every request of the component names).
 */
export function completer(provider: Provider, context: RunContext, producer: string, model: string): Completion {
  const options: CompleteOptions = {
    signal: context.signal,
    onDelta: (text) => context.emit({ type: "model.delta", producer, model, text }),
    onRetry: (info) =>
      context.emit({ type: "model.retry.scheduled", provider: provider.name, attempt: info.attempt, delay_ms: info.delayMs, reason: info.reason }),
  };
  return async (request, round) => {
    if (context.signal?.aborted) throw new RathError("aborted", `${producer}: the run was aborted before model round ${round}`);
    context.emit({ type: "model.request.started", producer, model: request.model, round });
    const response = await provider.complete(request, options);
    context.emit({
      type: "model.response.completed",
      producer,
      model: response.model,
      usage: response.usage,
      latency_ms: response.latencyMs,
      finish_reason: response.finishReason,
    });
    return response;
  };
}

/** One completion reported as events (see `completer`), for components that make one request per run. */
export function completeWithEvents(
  provider: Provider,
  request: ModelRequest,
  context: RunContext,
  report: { producer: string; round: number },
): Promise<ModelResponse> {
  return completer(provider, context, report.producer, request.model)(request, report.round);
}
