/**
 * 01 · Hello agent: the smallest program. An Agent is a reusable `Session -> Session` transform; the reply
 * streams to stdout as it arrives and is appended to the output session as one assistant chunk.
 *
 *   npx tsx examples/01-hello-agent.ts
 */
import { Agent, defaultContext, Session } from "../runtime";
import { describeModel, exampleModel } from "./shared/provider";
import { printSession, streamToStdout } from "./shared/print";

const model = exampleModel([{ content: "Hello! I am a scripted model, answering offline.", usage: { prompt_tokens: 21, completion_tokens: 11, total_tokens: 32 } }]);
console.log(describeModel(model));

const agent = new Agent({ name: "greeter", instructions: "You are friendly and brief.", provider: model.provider });
const input = Session.create("user", "Say hello in one sentence.");

process.stdout.write("streaming: ");
const output = await agent.forward(input, defaultContext({ emit: streamToStdout() }));

printSession("output", output);
const reply = output.chunks.last();
console.log(`ok: reply=${JSON.stringify(reply?.kind === "assistant" ? reply.payload.content : null)} parents=${output.lineage.parent_session_ids.length}`);
