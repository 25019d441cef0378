import { measureLoopRound } from "./loop-measure";
import { measureLangGraphLoop } from "./peers/langgraph-loop";
import { measureOpenAiAgentsLoop } from "./peers/openai-agents-loop";
import { BENCH_NAMES, PEER_BENCH_NAMES, type BenchName, type BenchResult, type PeerBenchName } from "./report";
import { garbageCollector, measureFork, measureForkMemory, measureLineageExport, measureMerge } from "./session-measures";
import { medianOf, type Repetition } from "./timing";

/** Sizes and repetitions of one benchmark run. */
export interface BenchSizes {
  chunks: number;
  forkBatch: number;
  mergeBatch: number;
  exportSessions: number;
  memoryForks: number;
  memoryRepeats: number;
  loopRounds: number;
  /** Rounds of the warm-up run before timed loop runs. */
  loopWarmupRounds: number;
  micro: Repetition;
  /** Our loop is cheap: more repeats. */
  loop: Repetition;
  /** Peer loops take seconds each at full size. */
  peerLoop: Repetition;
}

/** The sizes the brief names (10k chunks, 10k sessions, 1,000 forks, 1,000 rounds); about a minute on 2 cores. */
export const FULL_SIZES: BenchSizes = {
  chunks: 10_000,
  forkBatch: 10_000,
  mergeBatch: 2_000,
  exportSessions: 10_000,
  memoryForks: 1_000,
  memoryRepeats: 5,
  loopRounds: 1_000,
  loopWarmupRounds: 200,
  micro: { warmups: 3, repeats: 9 },
  loop: { warmups: 3, repeats: 7 },
  peerLoop: { warmups: 0, repeats: 3 },
};

/** Tiny sizes for tests: checks that every measure runs and reports, in a few seconds. */
export const QUICK_SIZES: BenchSizes = {
  chunks: 5_000,
  forkBatch: 100,
  mergeBatch: 50,
  exportSessions: 100,
  memoryForks: 10,
  memoryRepeats: 1,
  loopRounds: 5,
  loopWarmupRounds: 2,
  micro: { warmups: 1, repeats: 3 },
  loop: { warmups: 0, repeats: 1 },
  peerLoop: { warmups: 0, repeats: 1 },
};

/** Runs one measure after a full collection (so one measure's garbage does not bill the next); errors become results. */
async function attempt(
  bench: BenchName | PeerBenchName,
  measure: () => Promise<number | { value: number; detail: string }>,
): Promise<BenchResult> {
  try {
    garbageCollector()();
    const measured = await measure();
    return typeof measured === "number" ? { bench, value: measured } : { bench, ...measured };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { bench, value: null, error: message.split("\n")[0] ?? message };
  }
}

async function loopMedian(sizes: BenchSizes, repetition: Repetition, measure: (rounds: number) => Promise<number>): Promise<number> {
  await measure(sizes.loopWarmupRounds);
  return medianOf(repetition, () => measure(sizes.loopRounds));
}

type Measure = (sizes: BenchSizes) => Promise<number | { value: number; detail: string }>;

/** Every measure by name: the five runtime measures, then the peer loops. */
const MEASURES: Record<BenchName | PeerBenchName, Measure> = {
  fork_10k_us: (sizes) => measureFork(sizes.chunks, sizes.forkBatch, sizes.micro),
  merge_10k_10k_us: (sizes) => measureMerge(sizes.chunks, sizes.mergeBatch, sizes.micro),
  lineage_export_10k_ms: (sizes) => measureLineageExport(sizes.exportSessions, sizes.micro),
  loop_round_us: async (sizes) => {
    const value = await loopMedian(sizes, sizes.loop, (rounds) => measureLoopRound(rounds, "instant"));
    const scripted = await measureLoopRound(sizes.loopRounds, "scripted");
    return { value, detail: `instant bench model; with createScriptedProvider (deep-copies every request) ${scripted.toFixed(0)} us per round` };
  },
  fork_memory_ratio: async (sizes) => {
    const memory = measureForkMemory(sizes.chunks, sizes.memoryForks, sizes.memoryRepeats);
    const detail = `session ${(memory.sessionBytes / 1e6).toFixed(2)} MB, ${Math.round(memory.bytesPerFork)} bytes per fork`;
    return { value: memory.ratio, detail };
  },
  peer_openai_agents_loop_round_us: (sizes) => loopMedian(sizes, sizes.peerLoop, measureOpenAiAgentsLoop),
  peer_langgraph_loop_round_us: (sizes) => loopMedian(sizes, sizes.peerLoop, measureLangGraphLoop),
};

/** Runs one measure, by name, in this process. */
export function runBenchmark(name: BenchName | PeerBenchName, sizes: BenchSizes): Promise<BenchResult> {
  return attempt(name, () => MEASURES[name](sizes));
}

/** Runs the five runtime measures in this process, in `BENCH_NAMES` order; a measure that throws is reported with its error. */
export async function runRuntimeBenchmarks(sizes: BenchSizes): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const name of BENCH_NAMES) results.push(await runBenchmark(name, sizes));
  return results;
}

/** Runs the same tool loop through `@openai/agents` and `@langchain/langgraph`, in this process. */
export async function runPeerBenchmarks(sizes: BenchSizes): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const name of PEER_BENCH_NAMES) results.push(await runBenchmark(name, sizes));
  return results;
}
