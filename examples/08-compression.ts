/**
 * 08 · Compression: a Compressor summarises a long session into a new session holding one `user` chunk, to
 * keep the context small. It is lossy, so the lineage says so (`compression.lossy`), and the compressed
 * session keeps a reference to the session it summarised: nothing is lost from the graph.
 *
 *   npx tsx examples/08-compression.ts
 */
import { Agent, Compressor, makeChunk, Session, type ScriptedStep } from "../runtime";
import { describeModel, exampleModel } from "./shared/provider";
import { printSession } from "./shared/print";

const script: ScriptedStep[] = [
  { content: "Trip plan so far: Lisbon, 2 nights in Alfama, budget 600 EUR, wants pastéis de nata and the Castelo.", usage: { prompt_tokens: 120, completion_tokens: 25, total_tokens: 145 } },
  { content: "Day 1: Castelo de São Jorge, then dinner in Alfama. Day 2: Belém for pastéis de nata.", usage: { prompt_tokens: 40, completion_tokens: 22, total_tokens: 62 } },
];
const model = exampleModel(script);
console.log(describeModel(model));

const turn = (role: "user" | "assistant", text: string) =>
  role === "user" ? makeChunk("user", { content: text }) : makeChunk("assistant", { content: text, tool_calls: null }, { producer: "planner" });
const long = Session.create("user", "I want a weekend in Lisbon.").append(
  turn("assistant", "Great choice. Where would you like to stay?"),
  turn("user", "Somewhere old and charming, maybe Alfama. Two nights."),
  turn("assistant", "Alfama it is. What is your budget?"),
  turn("user", "About 600 euros. I love pastries and castles."),
  turn("assistant", "Then pastéis de nata in Belém and the Castelo de São Jorge are musts."),
);
printSession("long", long);

const compressor = new Compressor({ provider: model.provider });
const compressed = await compressor.forward(long);
printSession("compressed", compressed);
const extras = Object.fromEntries(compressed.lineage.lineage_extras);
console.log(`  extras: ${JSON.stringify(extras)}`);
console.log(`  summary chunk remembers its source: ${compressed.chunks.at(0)?.meta.source_session_id === long.id}`);

const planner = new Agent({ name: "planner", instructions: "Turn the plan into a two-day itinerary.", provider: model.provider });
const next = await planner.forward(compressed.append(makeChunk("user", { content: "Now give me a two-day itinerary." })));
printSession("continued", next);
console.log(`ok: rows_in=${String(extras["compression.rows_in"])} rows_out=${String(extras["compression.rows_out"])} lossy=${String(extras["compression.lossy"])} continued_chunks=${next.chunks.length}`);
