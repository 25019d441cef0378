import { Agent, run, setTracingDisabled, tool, Usage, type Model, type ModelResponse } from "@openai/agents";
import { z } from "zod";

/**
 * A model that answers instantly: one call of the `constant` tool per turn for `rounds` turns, then a final
 * text message, then starts over (the same script our own loop benchmark runs).
 */
class InstantToolCallingModel implements Model {
  private turns = 0;

  constructor(private readonly rounds: number) {}

  async getResponse(): Promise<ModelResponse> {
    this.turns += 1;
    const usage = new Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 });
    if (this.turns <= this.rounds) {
      return { usage, output: [{ type: "function_call", callId: `call_${this.turns}`, name: "constant", arguments: "{}", status: "completed" }] };
    }
    this.turns = 0;
    return { usage, output: [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "done" }] }] };
  }

  getStreamedResponse(): AsyncIterable<never> {
    throw new Error("the benchmark model does not stream");
  }
}

/**
 * Microseconds per tool round of an `@openai/agents` run: `rounds` turns of one trivial tool call, then a final
 * answer; `runs` runs of one agent, total time over all rounds.
 */
export async function measureOpenAiAgentsLoop(rounds: number, runs = 1): Promise<number> {
  setTracingDisabled(true);
  const constant = tool({ name: "constant", description: "Returns 42.", parameters: z.object({}), execute: async () => "42" });
  const agent = new Agent({ name: "bench", instructions: "Call the tool.", model: new InstantToolCallingModel(rounds), tools: [constant] });
  const start = performance.now();
  for (let index = 0; index < runs; index++) {
    const result = await run(agent, "go", { maxTurns: rounds + 2 });
    if (result.finalOutput !== "done") throw new Error(`expected the final output 'done'; found ${String(result.finalOutput)}`);
  }
  return ((performance.now() - start) * 1000) / (rounds * runs);
}
