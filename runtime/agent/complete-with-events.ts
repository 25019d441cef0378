import type { RunContext } from "../context";
import { RathError } from "../errors";
import type { ModelRequest, ModelResponse, Provider } from "../providers/types";

/**
 * One completion, reported as events: `model.request.started`, a `model.delta` per streamed piece,
 * `model.retry.scheduled` per retry and `model.response.completed`. Deltas are always requested (the
 * assistant chunk is still appended whole by the caller).
 */
export async function completeWithEvents(
  provider: Provider,
  request: ModelRequest,
  context: RunContext,
  report: { producer: string; round: number },
): Promise<ModelResponse> {
  if (context.signal?.aborted) throw new RathError("aborted", `${report.producer}: the run was aborted before model round ${report.round}`);
  const model = request.model;
  context.emit({ type: "model.request.started", producer: report.producer, model, round: report.round });
  const response = await provider.complete(request, {
    signal: context.signal,
    onDelta: (text) => context.emit({ type: "model.delta", producer: report.producer, model, text }),
    onRetry: (info) =>
      context.emit({ type: "model.retry.scheduled", provider: provider.name, attempt: info.attempt, delay_ms: info.delayMs, reason: info.reason }),
  });
  context.emit({
    type: "model.response.completed",
    producer: report.producer,
    model: response.model,
    usage: response.usage,
    latency_ms: response.latencyMs,
    finish_reason: response.finishReason,
  });
  return response;
}
