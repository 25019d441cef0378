/**
 * 10 · Provider variation: the model is a port. The same agent runs on the scripted provider and on an
 * OpenAI-compatible endpoint (`agent.clone({ provider })`). With OPENAI_API_KEY that endpoint is the real
 * API; offline it is a local server that speaks the Chat Completions wire protocol, so the official `openai`
 * SDK path (streaming, tool calls, usage, retries) still runs. Its first answer is a 429, retried.
 *
 *   npx tsx examples/10-provider-variation.ts
 */
import { z } from "zod";
import { Agent, createOpenAIProvider, createScriptedProvider, defaultContext, defineTool, Session, type Provider } from "../runtime";
import { startChatCompletionsServer, type ChatCompletionsServer } from "../runtime/testing/chat-completions-server";
import { describeModel, exampleModel } from "./shared/provider";
import { printSession, streamToStdout } from "./shared/print";

const wordCount = defineTool({
  name: "word_count",
  description: "Count the words of a text.",
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => ({ words: text.split(/\s+/).filter(Boolean).length }),
});
const SENTENCE = "the session is the value that flows";

const scripted = createScriptedProvider({
  name: "scripted",
  model: "scripted-example",
  steps: [
    { toolCalls: [{ name: "word_count", arguments: { text: SENTENCE } }], usage: { prompt_tokens: 30, completion_tokens: 9, total_tokens: 39 } },
    { content: "It has 7 words.", usage: { prompt_tokens: 45, completion_tokens: 5, total_tokens: 50 } },
  ],
});

const live = exampleModel([]);
console.log(describeModel(live));
let server: ChatCompletionsServer | null = null;
let compatible: Provider;
if (live.live) {
  compatible = live.provider;
} else {
  server = await startChatCompletionsServer({
    script: [
      { type: "error", status: 429, message: "slow down", headers: { "retry-after": "0" } },
      { type: "completion", toolCalls: [{ name: "word_count", arguments: { text: SENTENCE } }] },
      { type: "completion", content: "Seven words, counted by the tool." },
    ],
  });
  compatible = createOpenAIProvider({ name: "openai-compatible", baseURL: server.baseURL, apiKey: "local-test-key", defaultModel: "scripted-model" });
}
console.log(`provider 1: scripted; provider 2: ${live.live ? live.provider.name : `an OpenAI-compatible server at ${server?.baseURL}`}`);

const agent = new Agent({
  name: "counter",
  instructions: `Count the words of "${SENTENCE}" with the word_count tool, then answer in one short sentence.`,
  provider: scripted,
  tools: [wordCount],
});

try {
  const outcomes: string[] = [];
  for (const variant of [agent, agent.clone({ provider: compatible })]) {
    let retries = 0;
    const emit = streamToStdout();
    const context = defaultContext({
      emit: (event) => {
        if (event.type === "model.retry.scheduled") retries += 1;
        emit(event);
      },
    });
    console.log(`--- ${variant.options.provider.name}`);
    const output = await variant.forward(Session.create("user", "How many words?"), context);
    printSession(variant.options.provider.name, output);
    const result = output.chunks.toArray().find((chunk) => chunk.kind === "tool_result");
    console.log(`  model=${output.chunks.last()?.meta.model} retries=${retries} tool_result=${result?.payload.content}`);
    outcomes.push(`${variant.options.provider.name}:${result?.payload.content ?? "none"}`);
  }
  if (server) console.log(`  the local server saw ${server.completionRequests().length} completion requests`);
  console.log(`ok: ${outcomes.join(" ")}`);
} finally {
  await server?.close();
}
