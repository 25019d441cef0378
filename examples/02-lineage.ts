/**
 * 02 · Lineage: Sessions are immutable values; fork, detach and merge make new ones and record where they
 * came from. The graph helpers walk that record, and files keep it: one JSONL file per session and a lineage
 * export with one line per session. No model is needed. The files stay in .rath/examples/02-lineage/ (or
 * RATH_EXAMPLE_DIR) for `rath inspect` to read:
 *
 *   npx tsx examples/02-lineage.ts
 *   npx rath inspect .rath/examples/02-lineage/*.jsonl*
 */
import { mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { ancestors, descendants, edges, indexById, loadSessionFile, makeChunk, openSessionWriter, readLineageExport, Session, validateAcyclic, writeLineageExport } from "../runtime";

const short = (id: string): string => id.slice(0, 8);

const root = Session.create("user", "Plan a weekend trip to Lisbon.");
const food = root.fork().append(makeChunk("assistant", { content: "Try pastéis de nata in Belém.", tool_calls: null }, { producer: "food" }));
const sights = root.fork().append(makeChunk("assistant", { content: "Walk up to the Castelo de São Jorge.", tool_calls: null }, { producer: "sights" }));
const merged = food.merge(sights);
const fresh = merged.detach();

const sessions = [root, food, sights, merged, fresh];
for (const session of sessions) {
  const parents = session.lineage.parent_session_ids.map(short).join(", ");
  console.log(`${short(session.id)} ${session.lineage.lineage_kind.padEnd(10)} ${session.lineage.lineage_operator.padEnd(15)} chunks=${session.chunks.length} parents=[${parents}]`);
}

validateAcyclic(sessions);
const index = indexById(sessions);
console.log(`ancestors of merged: ${ancestors(merged.id, index).map(short).join(" ")}`);
console.log(`descendants of root: ${descendants(root.id, sessions).map(short).join(" ")}`);
console.log(`edges: ${edges(sessions).map(([parent, child]) => `${short(parent)}->${short(child)}`).join(" ")}`);
console.log(`root is unchanged: ${root.chunks.length} chunk (fork and merge never copy or mutate chunks)`);

// Written afresh on each run (the folder is emptied first) and kept, so `rath inspect` has something to read.
const directory = process.env.RATH_EXAMPLE_DIR ?? join(process.cwd(), ".rath", "examples", "02-lineage");
await rm(directory, { recursive: true, force: true });
await mkdir(directory, { recursive: true });
for (const session of sessions) {
  const writer = await openSessionWriter(directory, session);
  await writer.close();
}
// A writer that never closes (as after a crash) leaves a partial file: `rath inspect` shows it as CRASHED.
const crashed = fresh.fork().append(makeChunk("user", { content: "And on Sunday?" }, { producer: "user" }));
await (await openSessionWriter(directory, crashed)).abandon();
const lineageFile = join(directory, "lineage.jsonl");
await writeLineageExport(lineageFile, sessions);

const files = (await readdir(directory)).sort();
console.log(`wrote ${files.length} files to ${directory}`);
const loaded = await loadSessionFile(join(directory, `${merged.id}.jsonl`));
console.log(`reloaded merged: ${loaded.session.chunks.length} chunks, closed=${loaded.facts.closed}, parents=${loaded.session.lineage.parent_session_ids.length}`);
const records = await readLineageExport(lineageFile);
console.log(`lineage export: ${records.length} lines, kinds ${records.map((record) => record.lineage_kind).join(",")}`);
console.log(`inspect them: npx rath inspect ${join(directory, "*.jsonl*")}`);
console.log(`ok: sessions=${sessions.length} edges=${edges(sessions).length} merged_chunks=${merged.chunks.length} export_lines=${records.length}`);
