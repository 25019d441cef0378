/**
 * 07 · Streaming and usage: a run reports what happens as typed events (`model.delta` while the reply
 * streams, `tool.call.*`, `chunk.appended`, ...). Every assistant chunk carries the usage of its completion,
 * the output session the loop's total; a token budget fires its callback once, at the first crossing.
 *
 *   npx tsx examples/07-streaming-usage.ts
 */
import { z } from "zod";
import { Agent, defaultContext, defineTool, EventBus, Session, type RuntimeEventType, type ScriptedStep } from "../runtime";
import { describeModel, exampleModel } from "./shared/provider";
import { streamToStdout } from "./shared/print";

const clock = defineTool({ name: "current_year", description: "The current year.", parameters: z.object({}), execute: () => ({ year: 2026 }) });

const script: ScriptedStep[] = [
  { toolCalls: [{ name: "current_year", arguments: {} }], usage: { prompt_tokens: 40, completion_tokens: 8, total_tokens: 48 } },
  { content: "It is 2026, so the Lisbon trip is this year. Pack light and bring good shoes.", usage: { prompt_tokens: 60, completion_tokens: 18, total_tokens: 78 } },
];
const model = exampleModel(script);
console.log(describeModel(model));

const bus = new EventBus();
const counts = new Map<RuntimeEventType, number>();
bus.on((event) => counts.set(event.type, (counts.get(event.type) ?? 0) + 1));
bus.on(streamToStdout());

let budgetCrossings = 0;
const agent = new Agent({
  name: "planner",
  instructions: "Look up the year with the tool, then give one travel tip.",
  provider: model.provider,
  tools: [clock],
  tokenBudget: {
    limit: 100,
    onExceeded: (info) => {
      budgetCrossings += 1;
      console.log(`  budget: ${info.used} tokens used, over the limit of ${info.limit}; continuing`);
      return "continue";
    },
  },
});

console.log("streaming:");
const output = await agent.forward(Session.create("user", "Is my trip this year? One tip, please."), defaultContext({ emit: bus.emit }));

for (const [index, chunk] of output.chunks.toArray().entries()) {
  if (chunk.kind === "assistant") console.log(`  chunk ${index} usage: ${JSON.stringify(chunk.meta.usage ?? null)} model=${chunk.meta.model}`);
}
console.log(`  session usage: ${JSON.stringify(output.usage)}`);
console.log(`  events: ${[...counts].map(([type, count]) => `${type}=${count}`).join(" ")}`);
console.log(`ok: total_tokens=${output.usage?.total_tokens ?? 0} deltas=${counts.get("model.delta") ?? 0} budget_crossings=${budgetCrossings}`);
