import { z } from "zod";
import { Agent } from "../runtime/agent/agent";
import type { Provider } from "../runtime/providers/types";
import { Session } from "../runtime/session/session";
import { createScriptedProvider } from "../runtime/testing/scripted-provider";
import { defineTool } from "../runtime/tools/define-tool";
import { createInstantToolCallingProvider } from "./instant-provider";

/** Which fake model drives the loop: the bench's instant provider, or the runtime's scripted provider. */
export type LoopModel = "instant" | "scripted";

function providerFor(model: LoopModel, rounds: number, onRequest?: (request: number) => void): Provider {
  if (model === "instant") return createInstantToolCallingProvider(rounds, onRequest);
  return createScriptedProvider({
    steps: (_request, index) => {
      const request = (index % (rounds + 1)) + 1;
      onRequest?.(request);
      return request <= rounds ? { toolCalls: [{ name: "constant", arguments: {} }] } : { content: "done" };
    },
  });
}

const constant = defineTool({ name: "constant", description: "Returns 42.", parameters: z.object({}), execute: () => 42 });

function loopAgent(rounds: number, model: LoopModel, onRequest?: (request: number) => void): Agent {
  return new Agent({ name: "bench", instructions: "Call the tool.", provider: providerFor(model, rounds, onRequest), tools: [constant], maxRounds: rounds + 2 });
}

async function runLoop(agent: Agent, rounds: number): Promise<void> {
  const output = await agent.forward(Session.create("user", "go"));
  const last = output.chunks.last();
  if (last?.kind !== "assistant" || last.payload.content !== "done") {
    throw new Error(`expected the loop to end with the assistant answer 'done'; found a ${last?.kind ?? "missing"} chunk`);
  }
  if (output.chunks.length !== 2 * rounds + 2) throw new Error(`expected ${2 * rounds + 2} chunks after ${rounds} rounds; found ${output.chunks.length}`);
}

/**
 * Microseconds per tool round of the runtime's agent loop: the model answers instantly with one call of a
 * tool that returns a constant, `rounds` times, then a final answer; total time of `Agent.forward` divided by
 * rounds, over `runs` runs of one agent (so short loops are timed over enough rounds).
 */
export async function measureLoopRound(rounds: number, model: LoopModel = "instant", runs = 1): Promise<number> {
  const agent = loopAgent(rounds, model);
  const start = performance.now();
  for (let run = 0; run < runs; run++) await runLoop(agent, rounds);
  return ((performance.now() - start) * 1000) / (rounds * runs);
}

/**
 * Microseconds per round over the last `window` rounds of one `rounds`-round run (rounds 9,901-10,000 of a
 * 10,000-round run by default): from the model request that starts round `rounds - window + 1` to the request
 * after round `rounds` (the final answer). A loop whose round cost grows with the session shows it here.
 */
export async function measureLateRounds(rounds: number, window: number, model: LoopModel = "instant"): Promise<number> {
  const first = rounds - window + 1;
  let startedAt = 0;
  let endedAt = 0;
  const agent = loopAgent(rounds, model, (request) => {
    if (request === first) startedAt = performance.now();
    else if (request === rounds + 1) endedAt = performance.now();
  });
  await runLoop(agent, rounds);
  return ((endedAt - startedAt) * 1000) / window;
}
