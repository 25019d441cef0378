import type { ModelRequest, ModelResponse, Provider } from "../runtime/providers/types";

/**
 * A Provider that answers instantly: the first `rounds` requests call the `constant` tool once, the next one
 * answers "done", and the script starts over (so one agent can run the loop again). It reads nothing of the request
 * and keeps no copy of it (the peer benchmarks' fake models keep none either), so the benchmark times the agent
 * loop itself. `onRequest(n)` is called at the start of the n-th request of a run (from 1), for timing a window of
 * rounds inside one run.
 */
export function createInstantToolCallingProvider(rounds: number, onRequest?: (request: number) => void): Provider {
  let requests = 0;
  return {
    name: "bench-instant",
    kind: "scripted",
    defaultModel: "bench-instant",
    async complete(request: ModelRequest): Promise<ModelResponse> {
      requests += 1;
      onRequest?.(requests);
      const callsTool = requests <= rounds;
      if (!callsTool) requests = 0;
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
