/**
 * The runtime benchmark's measures, grouped: each group runs in one process (`--only GROUP`, or a measure's name).
 * The loop group interleaves our loop and the peers' at each length, repetition by repetition, so their ratio is
 * taken under the same machine load.
 */
import { measureLateRounds, measureLoopRound } from "./loop-measure";
import { measureLangGraphLoop } from "./peers/langgraph-loop";
import { measureOpenAiAgentsLoop } from "./peers/openai-agents-loop";
import { measureLineageExport } from "./lineage-export-measure";
import { LOOP_LENGTHS, type AnyBenchName, type BenchResult, type LoopLength } from "./report";
import { garbageCollector, measureFork, measureForkBytes, measureMerge, measureMergeRead } from "./session-measures";
import { summarise, type Repetition, type Samples, type SteadyWarmUp } from "./timing";

/** Sizes and repetitions of one benchmark run. */
export interface BenchSizes {
  chunks: number;
  forkBatch: number;
  mergeBatch: number;
  mergeReadBatch: number;
  exportSessions: number;
  memoryForks: number;
  memoryRepeats: number;
  /** The loop lengths actually run for the names at_10, at_100, at_1000 (the named ones at full size). */
  loopLengths: Record<LoopLength, number>;
  /** Each loop sample runs about this many rounds in all (several runs of a short loop). */
  roundsPerSample: number;
  /** Interleaved repetitions of the loop group (ours and peers at each length). */
  loopRepeats: number;
  /**
   * Warm-up samples of each side at each length before the first kept one (discarded). V8 takes several thousand
   * rounds of a loop to settle (tier-up, heap growth), for us and the peers alike.
   */
  loopWarmups: number;
  lateRounds: number;
  lateWindow: number;
  micro: Repetition;
  /** The lineage export's warm-up (until its exports stop getting faster); it keeps `micro.repeats` samples. */
  exportWarmUp: SteadyWarmUp;
}

/** The sizes the issue names (10k chunks, 10k sessions, 1,000 forks, loops of 10/100/1,000 rounds, a 10,000-round run). */
export const FULL_SIZES: BenchSizes = {
  chunks: 10_000,
  forkBatch: 10_000,
  mergeBatch: 2_000,
  mergeReadBatch: 40,
  exportSessions: 10_000,
  memoryForks: 1_000,
  memoryRepeats: 9,
  loopLengths: { 10: 10, 100: 100, 1000: 1000 },
  roundsPerSample: 1000,
  loopRepeats: 5,
  loopWarmups: 3,
  lateRounds: 10_000,
  lateWindow: 100,
  micro: { warmups: 3, repeats: 9 },
  exportWarmUp: { block: 5, minBlocks: 2, maxBlocks: 10, tolerance: 0.05 },
};

/** Tiny sizes for tests: every measure runs and reports, in seconds; the numbers are not the named measures. */
export const QUICK_SIZES: BenchSizes = {
  chunks: 2_000,
  forkBatch: 100,
  mergeBatch: 20,
  mergeReadBatch: 2,
  exportSessions: 100,
  memoryForks: 1_000,
  memoryRepeats: 1,
  loopLengths: { 10: 2, 100: 3, 1000: 5 },
  roundsPerSample: 5,
  loopRepeats: 1,
  loopWarmups: 1,
  lateRounds: 20,
  lateWindow: 5,
  micro: { warmups: 1, repeats: 3 },
  exportWarmUp: { block: 1, minBlocks: 1, maxBlocks: 2, tolerance: 0.05 },
};

/** A group of measures that runs in one process. */
export interface BenchGroup {
  name: string;
  benches: readonly AnyBenchName[];
  run: (sizes: BenchSizes, options: { peers: boolean }) => Promise<BenchResult[]>;
}

function result(bench: AnyBenchName, samples: Samples, detail?: string): BenchResult {
  return { bench, value: samples.median, range: [samples.min, samples.max], ...(detail === undefined ? {} : { detail }) };
}

/** Runs a measure after a full collection (so one measure's garbage does not bill the next); an error becomes a result. */
async function attempt(benches: readonly AnyBenchName[], measure: () => Promise<BenchResult[]>): Promise<BenchResult[]> {
  try {
    garbageCollector()();
    return await measure();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return benches.map((bench) => ({ bench, value: null, error: message.split("\n")[0] ?? message }));
  }
}

const PEERS = {
  openai_agents: measureOpenAiAgentsLoop,
  langgraph: measureLangGraphLoop,
} as const;

/**
 * Our loop and the peers' at each length, interleaved: every repetition measures ours, @openai/agents and
 * LangGraph at 10, 100 and 1,000 rounds, one after the other, after `loopWarmups` discarded samples of each side
 * at each length (run in the same interleaved order); then the late rounds of one 10,000-round run, repeated. A
 * sample of a short loop averages several runs (`roundsPerSample` rounds in all). The first sample of our loop at
 * 1,000 rounds (the process cold) is reported in the detail line, not as the measure.
 */
async function runLoopGroup(sizes: BenchSizes, peers: boolean): Promise<BenchResult[]> {
  const sides = peers ? (["ours", "openai_agents", "langgraph"] as const) : (["ours"] as const);
  const measureSide = (side: (typeof sides)[number], rounds: number): Promise<number> => {
    const runs = Math.max(1, Math.round(sizes.roundsPerSample / rounds));
    return side === "ours" ? measureLoopRound(rounds, "instant", runs) : PEERS[side](rounds, runs);
  };
  const cold = await measureLoopRound(sizes.loopLengths[1000], "instant");
  const samples = new Map<string, number[]>();
  const gc = garbageCollector();
  for (let repeat = -sizes.loopWarmups; repeat < sizes.loopRepeats; repeat++) {
    for (const length of LOOP_LENGTHS) {
      for (const side of sides) {
        gc();
        const value = await measureSide(side, sizes.loopLengths[length]);
        const key = `${side}@${length}`;
        if (repeat >= 0) samples.set(key, [...(samples.get(key) ?? []), value]);
      }
    }
  }
  await measureLateRounds(sizes.lateRounds, sizes.lateWindow);
  const late: number[] = [];
  for (let repeat = 0; repeat < sizes.loopRepeats; repeat++) {
    gc();
    late.push(await measureLateRounds(sizes.lateRounds, sizes.lateWindow));
  }
  const scripted = await measureLoopRound(sizes.loopLengths[1000], "scripted");
  const scriptedLate = await measureLateRounds(sizes.lateRounds, sizes.lateWindow, "scripted");
  const results: BenchResult[] = LOOP_LENGTHS.map((length) =>
    result(
      `loop_round_us_at_${length}`,
      summarise(samples.get(`ours@${length}`) as number[]),
      length === 1000 ? `the first ${sizes.loopLengths[1000]}-round run of the process (cold, before any warm-up): ${cold.toFixed(1)} us per round` : undefined,
    ),
  );
  results.push(
    result(
      "loop_round_late_us",
      summarise(late),
      `rounds ${sizes.lateRounds - sizes.lateWindow + 1}-${sizes.lateRounds} of one ${sizes.lateRounds}-round run; with createScriptedProvider (which records every request) ${scripted.toFixed(1)} us per round at ${sizes.loopLengths[1000]} rounds and ${scriptedLate.toFixed(1)} late`,
    ),
  );
  if (peers) {
    for (const peer of ["openai_agents", "langgraph"] as const) {
      for (const length of LOOP_LENGTHS) results.push(result(`peer_${peer}_loop_round_us_at_${length}`, summarise(samples.get(`${peer}@${length}`) as number[])));
    }
  }
  return results;
}

/** Every group, in print order. */
export const BENCH_GROUPS: readonly BenchGroup[] = [
  {
    name: "fork",
    benches: ["fork_10k_us"],
    run: async (sizes) => [result("fork_10k_us", await measureFork(sizes.chunks, sizes.forkBatch, sizes.micro))],
  },
  {
    name: "merge",
    benches: ["merge_10k_10k_us", "merge_read_10k_10k_us"],
    run: async (sizes) => {
      const merge = await measureMerge(sizes.chunks, sizes.mergeBatch, sizes.micro);
      const mergeRead = await measureMergeRead(sizes.chunks, sizes.mergeReadBatch, sizes.micro);
      return [
        result("merge_10k_10k_us", merge, `pairs of rope heights ${merge.heights}`),
        result("merge_read_10k_10k_us", mergeRead, `merge then for...of over all ${2 * sizes.chunks} chunks; pairs of rope heights ${mergeRead.heights}`),
      ];
    },
  },
  {
    name: "lineage_export",
    benches: ["lineage_export_10k_ms"],
    run: async (sizes) => {
      const samples = await measureLineageExport(sizes.exportSessions, sizes.exportWarmUp, sizes.micro.repeats);
      const warmUp = `${samples.warmups} warm-up exports discarded (until a block of ${sizes.exportWarmUp.block} was no more than ${sizes.exportWarmUp.tolerance * 100} % faster than the one before)`;
      return [
        result(
          "lineage_export_10k_ms",
          samples,
          `realistic run graph (bench/lineage-graph.ts), file written; the first export of the process (cold): ${samples.first.toFixed(1)} ms; ${warmUp}`,
        ),
      ];
    },
  },
  {
    name: "loops",
    benches: [
      "loop_round_us_at_10",
      "loop_round_us_at_100",
      "loop_round_us_at_1000",
      "loop_round_late_us",
      "peer_openai_agents_loop_round_us_at_10",
      "peer_openai_agents_loop_round_us_at_100",
      "peer_openai_agents_loop_round_us_at_1000",
      "peer_langgraph_loop_round_us_at_10",
      "peer_langgraph_loop_round_us_at_100",
      "peer_langgraph_loop_round_us_at_1000",
    ],
    run: (sizes, options) => runLoopGroup(sizes, options.peers),
  },
  {
    name: "fork_bytes",
    benches: ["fork_bytes"],
    run: async (sizes) => {
      const bytes = measureForkBytes(sizes.chunks, sizes.memoryForks, sizes.memoryRepeats);
      return [result("fork_bytes", bytes, `heap bytes per fork of ${sizes.memoryForks} forks of a ${sizes.chunks}-chunk session (${(bytes.sessionBytes / 1e6).toFixed(2)} MB)`)];
    },
  },
];

/** The group named `name`, or the group holding the measure named `name`. */
export function groupFor(name: string): BenchGroup | undefined {
  return BENCH_GROUPS.find((group) => group.name === name || group.benches.includes(name as AnyBenchName));
}

/** Runs one group in this process. */
export function runGroup(group: BenchGroup, sizes: BenchSizes, options: { peers: boolean }): Promise<BenchResult[]> {
  return attempt(
    options.peers ? group.benches : group.benches.filter((bench) => !bench.startsWith("peer_")),
    () => group.run(sizes, options),
  );
}
