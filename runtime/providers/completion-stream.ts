import type { CompletionResult } from "./completion-result";
import { abortedError } from "./retry";

/** Folds one SDK's stream events into a result, handing back the text each event adds ("" when none). */
export interface StreamAccumulator<Event> {
  add(event: Event): string;
  result(requestedModel: string): CompletionResult;
}

/**
 * Reads a streamed completion to its end, passing every non-empty text delta to `onDelta`. Throws
 * RathError("aborted") when `signal` fired, because the SDKs end an aborted stream quietly.
 */
export async function readCompletionStream<Event>(
  stream: AsyncIterable<Event>,
  accumulator: StreamAccumulator<Event>,
  model: string,
  onDelta: (text: string) => void,
  signal: AbortSignal | undefined,
): Promise<CompletionResult> {
  for await (const event of stream) {
    const delta = accumulator.add(event);
    if (delta !== "") onDelta(delta);
  }
  // A partial answer must not pass for a whole one.
  if (signal?.aborted) throw abortedError();
  return accumulator.result(model);
}
