import { RathError } from "../errors";
import type { ChatMessage, CompleteOptions, FinishReason, ModelRequest, ModelResponse, Provider } from "../providers/types";
import type { ToolCall } from "../session/chunk";
import type { Usage } from "../session/usage";

/** A tool call a scripted step makes; `arguments` may be an object (serialised) or a raw string (sent as is). */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments: object | string;
}

/** One scripted model answer. */
export interface ScriptedStep {
  content?: string | null;
  toolCalls?: ScriptedToolCall[];
  usage?: Usage | null;
  /** Default: "tool_calls" when the step calls tools, otherwise "stop". */
  finishReason?: FinishReason;
  /** Waits this long before answering (honours the abort signal); also reported as the latency. */
  delayMs?: number;
  /** Makes the request fail: a string becomes `RathError("provider_error", message)`. */
  error?: Error | string;
}

/** A step, or a function that computes one from the request and its 0-based index. */
export type ScriptedStepSource = ScriptedStep | ((request: ModelRequest, index: number) => ScriptedStep | Promise<ScriptedStep>);

/** Options of `createScriptedProvider`. */
export interface ScriptedProviderOptions {
  /** Answers in order, or one function that answers every request (never runs out). */
  steps: readonly ScriptedStepSource[] | ((request: ModelRequest, index: number) => ScriptedStep | Promise<ScriptedStep>);
  name?: string;
  model?: string;
}

/** A scripted provider and what it saw. */
export interface ScriptedProvider extends Provider {
  /**
   * The requests received, in order, each as it was at its call: `messages` holds the messages the call saw
   * (later appends to the caller's array are not in it).
   */
  readonly requests: readonly ModelRequest[];
  /** Steps not used yet (Infinity for a function script). */
  readonly remaining: number;
}

/** Splits text into at most three deterministic deltas (so streaming code paths run in tests). */
export function splitIntoDeltas(text: string): string[] {
  if (text.length <= 1) return text === "" ? [] : [text];
  const size = Math.ceil(text.length / 3);
  const parts: string[] = [];
  for (let start = 0; start < text.length; start += size) parts.push(text.slice(start, start + size));
  return parts;
}

function abortedError(): RathError {
  return new RathError("aborted", "the scripted model request was aborted");
}

function wait(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, milliseconds);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortedError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function toToolCall(call: ScriptedToolCall, requestIndex: number, callIndex: number): ToolCall {
  return {
    id: call.id ?? `call_${requestIndex}_${callIndex}`,
    type: "function",
    function: { name: call.name, arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments) },
  };
}

/**
 * A request as it was at its call, without copying the conversation: the caller's `messages` array only grows
 * after a call (see `ModelRequest.messages`), so keeping it with its length at the call is enough, and the
 * copy is made when a test first reads `messages`. Recording is O(1) per call, not O(conversation), so a long
 * scripted run stays linear in time and memory. Reading throws when the caller shrank or rewrote the array.
 */
function recordRequest(request: ModelRequest, index: number): ModelRequest {
  const source = request.messages;
  const count = source.length;
  const last = source[count - 1];
  let messages: readonly ChatMessage[] | undefined;
  const recorded: ModelRequest = { ...request };
  Object.defineProperty(recorded, "messages", {
    enumerable: true,
    get(): readonly ChatMessage[] {
      if (messages === undefined) {
        if (source.length < count || source[count - 1] !== last) {
          throw new Error(
            `scripted provider: request ${index + 1}'s messages array was changed after the call (expected its first ${count} entries to stay); pass a new array or only append to it`,
          );
        }
        messages = source.slice(0, count);
      }
      return messages;
    },
  });
  return recorded;
}

/**
 * A deterministic Provider that answers from a script: the test double for every model in this repo, and
 * the engine of the offline demo provider. It streams content through `onDelta` in a few pieces, records
 * every request (`recordRequest`: O(1) per call), and throws a clear `provider_error` when the script runs out.
 */
export function createScriptedProvider(options: ScriptedProviderOptions): ScriptedProvider {
  const name = options.name ?? "scripted";
  const model = options.model ?? "scripted";
  const requests: ModelRequest[] = [];
  const script = options.steps;

  async function stepFor(request: ModelRequest, index: number): Promise<ScriptedStep> {
    if (typeof script === "function") return script(request, index);
    const source = script[index];
    if (source === undefined) {
      throw new RathError(
        "provider_error",
        `scripted provider '${name}' has no step for request ${index + 1}: it was given ${script.length} step(s); add more steps to the script`,
      );
    }
    return typeof source === "function" ? source(request, index) : source;
  }

  return {
    name,
    kind: "scripted",
    defaultModel: model,
    get requests() {
      return requests;
    },
    get remaining() {
      return typeof script === "function" ? Number.POSITIVE_INFINITY : Math.max(0, script.length - requests.length);
    },
    async complete(request: ModelRequest, completeOptions: CompleteOptions = {}): Promise<ModelResponse> {
      const signal = completeOptions.signal;
      if (signal?.aborted) throw abortedError();
      const index = requests.length;
      requests.push(recordRequest(request, index));
      const step = await stepFor(request, index);
      if (step.delayMs !== undefined && step.delayMs > 0) await wait(step.delayMs, signal);
      if (step.error !== undefined) {
        throw typeof step.error === "string" ? new RathError("provider_error", step.error) : step.error;
      }
      const content = step.content ?? null;
      if (content !== null && completeOptions.onDelta) {
        for (const delta of splitIntoDeltas(content)) completeOptions.onDelta(delta);
      }
      const toolCalls = (step.toolCalls ?? []).map((call, callIndex) => toToolCall(call, index, callIndex));
      return {
        content,
        toolCalls,
        finishReason: step.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
        usage: step.usage ?? null,
        model: request.model || model,
        latencyMs: step.delayMs ?? 0,
      };
    },
  };
}

/** Usage with `total_tokens` computed: `makeUsage(10, 5)`. */
export function makeUsage(promptTokens: number, completionTokens: number): Usage {
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
}
