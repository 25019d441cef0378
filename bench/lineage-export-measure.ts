import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeLineageExport } from "../runtime/files/lineage-export";
import { realisticLineageGraph } from "./lineage-graph";
import { samplesOf, type Repetition, type Samples } from "./timing";

/**
 * Milliseconds to write the lineage export (JSONL file, runtime/files' writeLineageExport) of `count` sessions of
 * a realistic run graph (bench/lineage-graph.ts), from the sessions in memory to the file written.
 */
export async function measureLineageExport(count: number, repetition: Repetition): Promise<Samples> {
  const sessions = realisticLineageGraph(count);
  const directory = await mkdtemp(join(tmpdir(), "rath-bench-"));
  try {
    const file = join(directory, "lineage.jsonl");
    return await samplesOf(repetition, async () => {
      const start = performance.now();
      await writeLineageExport(file, sessions);
      return performance.now() - start;
    });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
