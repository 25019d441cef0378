/**
 * 05 · A custom tool: `defineTool` takes a zod schema and a function. The model sees the JSON schema derived
 * from the zod schema; the runtime validates the model's arguments against it before `execute` runs, so bad
 * arguments come back to the model as an `invalid_tool_arguments` result instead of reaching your code.
 *
 *   npx tsx examples/05-custom-tool.ts
 */
import { z } from "zod";
import { Agent, defineTool, Session, type ScriptedStep } from "../runtime";
import { describeModel, exampleModel } from "./shared/provider";
import { printSession } from "./shared/print";

const convertTemperature = defineTool({
  name: "convert_temperature",
  description: "Convert a temperature between celsius and fahrenheit.",
  parameters: z.object({
    value: z.number().describe("The temperature to convert"),
    from: z.enum(["celsius", "fahrenheit"]),
    to: z.enum(["celsius", "fahrenheit"]),
  }),
  execute: ({ value, from, to }) => {
    if (from === to) return { value };
    const converted = from === "celsius" ? (value * 9) / 5 + 32 : ((value - 32) * 5) / 9;
    return { value: Math.round(converted * 100) / 100 };
  },
});
console.log(`the model sees: ${JSON.stringify(convertTemperature.jsonSchema)}`);

const script: ScriptedStep[] = [
  { toolCalls: [{ name: "convert_temperature", arguments: { value: "boiling", from: "celsius", to: "fahrenheit" } }] },
  { toolCalls: [{ name: "convert_temperature", arguments: { value: 100, from: "celsius", to: "fahrenheit" } }] },
  { content: "Water boils at 212 °F." },
];
const model = exampleModel(script);
console.log(describeModel(model));

const agent = new Agent({
  name: "converter",
  instructions: "Answer with the convert_temperature tool.",
  provider: model.provider,
  tools: [convertTemperature],
});
const output = await agent.forward(Session.create("user", "At what temperature in fahrenheit does water boil (100 celsius)?"));
printSession("output", output);

const results = output.chunks.toArray().filter((chunk) => chunk.kind === "tool_result");
const outcomes = results.map((result) => (result.meta.evidence?.ok ? result.payload.content : `error:${result.meta.evidence?.error_kind}`));
console.log(`ok: outcomes=${outcomes.join(" then ")}`);
