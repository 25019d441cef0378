import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { BenchResult } from "./report";
import type { BenchGroup } from "./run-benchmarks";

/**
 * Runs each group of measures in a fresh node process (`bench/runtime.ts --only GROUP`), one after another, so no
 * measure pays for the heap, JIT state or garbage another group left behind. The child prints one JSON result per
 * line; a child that fails is reported as a result with its error for each of its measures.
 */
export async function runIsolated(groups: readonly BenchGroup[], extraFlags: readonly string[], peers: boolean): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const group of groups) {
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [...process.execArgv, process.argv[1] as string, "--only", group.name, ...extraFlags],
        { maxBuffer: 16 * 1024 * 1024, timeout: 900_000 },
      );
      for (const line of stdout.trim().split("\n")) {
        if (line.startsWith("{")) results.push(JSON.parse(line) as BenchResult);
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const benches = peers ? group.benches : group.benches.filter((bench) => !bench.startsWith("peer_"));
      for (const bench of benches) results.push({ bench, value: null, error: `isolated run failed: ${message.split("\n")[0] ?? message}` });
    }
  }
  return results;
}
