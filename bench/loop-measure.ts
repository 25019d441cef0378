import { z } from "zod";
import { Agent } from "../runtime/agent/agent";
import type { Provider } from "../runtime/providers/types";
import { Session } from "../runtime/session/session";
import { createScriptedProvider } from "../runtime/testing/scripted-provider";
import { defineTool } from "../runtime/tools/define-tool";
import { createInstantToolCallingProvider } from "./instant-provider";

/** Which fake model drives the loop: the bench's instant provider, or the runtime's scripted provider. */
export type LoopModel = "instant" | "scripted";

function providerFor(model: LoopModel, rounds: number): Provider {
  if (model === "instant") return createInstantToolCallingProvider(rounds);
  return createScriptedProvider({
    steps: (_request, index) => (index < rounds ? { toolCalls: [{ name: "constant", arguments: {} }] } : { content: "done" }),
  });
}

/**
 * Microseconds per tool round of the runtime's agent loop: the model answers instantly with one call of a
 * tool that returns a constant, `rounds` times, then a final answer; total time divided by rounds.
 */
export async function measureLoopRound(rounds: number, model: LoopModel = "instant"): Promise<number> {
  const constant = defineTool({ name: "constant", description: "Returns 42.", parameters: z.object({}), execute: () => 42 });
  const agent = new Agent({ name: "bench", instructions: "Call the tool.", provider: providerFor(model, rounds), tools: [constant], maxRounds: rounds + 2 });
  const input = Session.create("user", "go");
  const start = performance.now();
  const output = await agent.forward(input);
  const elapsed = performance.now() - start;
  const last = output.chunks.last();
  if (last?.kind !== "assistant" || last.payload.content !== "done") {
    throw new Error(`expected the loop to end with the assistant answer 'done'; found a ${last?.kind ?? "missing"} chunk`);
  }
  return (elapsed * 1000) / rounds;
}
