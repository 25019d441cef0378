/**
 * 09 · Memory: state that lives outside the prompt (PyTorch's Parameter). A local store ranks documents with
 * BM25; an Agent with a memory policy recalls hits for the last user message before its loop (the model sees
 * them as system messages) and commits the new conversation after it. Every step is a `memory` chunk.
 *
 *   npx tsx examples/09-memory.ts
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, defaultContext, LocalMemoryStore, rememberInto, Session, type ModelRequest } from "../runtime";
import { describeModel, exampleModel } from "./shared/provider";
import { printSession } from "./shared/print";

/** Offline, the model answers from what memory put in front of it, so the output proves recall worked. */
function answerFromMemory(request: ModelRequest) {
  const recalled = request.messages.filter((message) => message.role === "system" && message.content.startsWith("[memory:"));
  const vegetarian = recalled.some((message) => message.content?.includes("vegetarian"));
  return { content: vegetarian ? "Since you are vegetarian: try the mushroom açorda at a tasca in Alfama." : "Try the grilled sardines." };
}
const model = exampleModel(answerFromMemory);
console.log(describeModel(model));

const directory = await mkdtemp(join(tmpdir(), "rath-example-09-"));
try {
  const file = join(directory, "memory.json");
  const store = new LocalMemoryStore({ name: "notes", path: file });
  const context = defaultContext();

  let profile = Session.create("system", "User profile");
  profile = await rememberInto(profile, store, "memory://user/diet", "The user is vegetarian and loves mushrooms.", context);
  profile = await rememberInto(profile, store, "memory://user/home", "The user lives in Porto and travels by train.", context);
  printSession("remembered", profile);

  const agent = new Agent({
    name: "concierge",
    instructions: "Recommend one dinner; respect what memory says about the user.",
    provider: model.provider,
    memory: { store, recall: { k: 2 }, commit: true },
  });
  const output = await agent.forward(Session.create("user", "What should I eat for dinner in Lisbon? I am vegetarian-curious."), context);
  printSession("output", output);

  const memoryChunks = output.chunks.toArray().filter((chunk) => chunk.kind === "memory");
  const recall = memoryChunks.find((chunk) => chunk.payload.op === "recall");
  const commit = memoryChunks.find((chunk) => chunk.payload.op === "commit");
  for (const hit of recall?.payload.hits ?? []) console.log(`  hit ${hit.uri} score=${hit.score.toFixed(3)}: ${hit.snippet}`);

  const reloaded = new LocalMemoryStore({ path: file });
  const again = await reloaded.recall("dinner Lisbon açorda", 1);
  console.log(`  reloaded store holds ${reloaded.size} documents; best for 'dinner Lisbon açorda': ${again[0]?.uri}`);
  console.log(`ok: hits=${recall?.payload.hits?.length ?? 0} top=${recall?.payload.hits?.[0]?.uri} committed=${commit?.payload.count ?? 0} reloaded=${reloaded.size}`);
} finally {
  await rm(directory, { recursive: true, force: true });
}
