import type { ModelRequest, ModelResponse, Provider } from "../runtime/providers/types";

/**
 * A Provider that answers instantly: the first `rounds` requests call the `constant` tool once, the next one
 * answers "done". Unlike the scripted provider it keeps no copy of the requests, so the benchmark times the
 * agent loop and not the test double's bookkeeping (the peer benchmarks' fake models keep none either).
 */
export function createInstantToolCallingProvider(rounds: number): Provider {
  let requests = 0;
  return {
    name: "bench-instant",
    kind: "scripted",
    defaultModel: "bench-instant",
    async complete(request: ModelRequest): Promise<ModelResponse> {
      requests += 1;
      const callsTool = requests <= rounds;
      return {
        content: callsTool ? null : "done",
        toolCalls: callsTool ? [{ id: `call_${requests}`, type: "function", function: { name: "constant", arguments: "{}" } }] : [],
        finishReason: callsTool ? "tool_calls" : "stop",
        usage: null,
        model: request.model,
        latencyMs: 0,
      };
    },
  };
}
