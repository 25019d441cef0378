import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { BenchName, BenchResult, PeerBenchName } from "./report";

/**
 * Runs each named measure in a fresh node process (`bench/runtime.ts --only NAME`), one after another, so no
 * measure pays for the heap, JIT state or garbage another one left behind. A child that fails is reported as a
 * result with its error.
 */
export async function runIsolated(names: readonly (BenchName | PeerBenchName)[], extraFlags: readonly string[]): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const name of names) {
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [...process.execArgv, process.argv[1] as string, "--only", name, ...extraFlags],
        { maxBuffer: 16 * 1024 * 1024, timeout: 600_000 },
      );
      const last = stdout.trim().split("\n").pop() ?? "";
      results.push(JSON.parse(last) as BenchResult);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      results.push({ bench: name, value: null, error: `isolated run failed: ${message.split("\n")[0] ?? message}` });
    }
  }
  return results;
}
