import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeLineageExport } from "../runtime/files/lineage-export";
import { realisticLineageGraph } from "./lineage-graph";
import { samplesAfterWarmUp, type SteadySamples, type SteadyWarmUp } from "./timing";

/**
 * Milliseconds to write the lineage export (JSONL file, runtime/files' writeLineageExport) of `count` sessions of
 * a realistic run graph (bench/lineage-graph.ts), from the sessions in memory to the file written.
 *
 * The graph is built in this process just before, so the first exports also pay for V8 compiling the writer
 * (several deopt/reoptimise rounds) and for the young generation growing and promoting the freshly built graph (a
 * 20-35 ms scavenge around the 6th export): discarded warm-up exports continue until they stop getting faster
 * (`warmUp`), as the loop measures discard theirs; the first, cold export is returned as `first`. The graph is
 * left where allocation and the scavenger put it (no full GC after building it: see bench/README.md, 2026-12-05
 * 07:00-08:40).
 */
export async function measureLineageExport(count: number, warmUp: SteadyWarmUp, repeats: number): Promise<SteadySamples> {
  const sessions = realisticLineageGraph(count);
  const directory = await mkdtemp(join(tmpdir(), "rath-bench-"));
  try {
    const file = join(directory, "lineage.jsonl");
    return await samplesAfterWarmUp(warmUp, repeats, async () => {
      const start = performance.now();
      await writeLineageExport(file, sessions);
      return performance.now() - start;
    });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
