/**
 * The engine benchmark: `npm run bench:engine [-- --json] [-- --quick] [-- --repeats N] [-- --runs N] [-- --lead-in N]
 * [-- --warm-up N] [-- --gc-each-sample]`.
 * Checkpoints committed per second with an instant model on SQLite (1 worker) and PostgreSQL (1 worker, and 4 claim
 * loops in one process), and the same chain on LangGraph with its SQLite checkpointer. Each sample runs on a fresh
 * database: `--lead-in` runs (default 5) untimed, then `--runs` runs (default 50) timed. `--warm-up` whole
 * repetitions (default 3) warm the process up; then the four are interleaved, repetition by repetition (default 7),
 * each repetition starting one measure later. One full collection runs before the warm-up and none between samples
 * (`--gc-each-sample` restores the method of 2026-12-05 07:00-11:55, a full collection before every sample, which
 * deoptimised each side's hot code at every sample: bench/README). The table shows the median and range, and
 * the samples in order. PostgreSQL is RATH_TEST_POSTGRES_URL or postgresql://postgres@127.0.0.1:5432/postgres; when it
 * is unreachable its measures print n/a with the reason. bench/README.md says why these sizes.
 */
import { loadavg } from "node:os";
import { formatEngineJsonLines, formatEngineTable, ENGINE_BENCH_NAMES, type EngineBenchName, type EngineBenchResult } from "./engine-report";
import { measureEngineSteps, measureLangGraphSqliteSteps, temporaryPostgres, temporarySqlite, type EngineBenchSize } from "./engine-measures";
import { walFrameWriteMicros } from "./host-probe";
import { garbageCollector } from "./session-measures";
import { summarise } from "./timing";

const args = process.argv.slice(2);
const flags = new Set(args);
const quick = flags.has("--quick");
function wholeOption(name: string, fallback: number, least: number): number {
  const index = args.indexOf(name);
  if (index < 0) return fallback;
  const value = Number(args[index + 1]);
  if (!Number.isInteger(value) || value < least) {
    console.error(`${name} needs a whole number >= ${least}; found '${args[index + 1] ?? ""}'`);
    process.exit(2);
  }
  return value;
}
// See bench/README.md for why these sizes: 50 timed runs (600 steps) per sample after 5 untimed lead-in runs on the
// same fresh database, three whole repetitions as the warm-up, 7 repetitions kept.
const size: EngineBenchSize = {
  runs: wholeOption("--runs", quick ? 4 : 50, 1),
  agents: quick ? 5 : 10,
  leadInRuns: wholeOption("--lead-in", quick ? 1 : 5, 0),
};
const repeats = wholeOption("--repeats", quick ? 1 : 7, 1);
const warmUps = wholeOption("--warm-up", quick ? 1 : 3, 1);
const gcEachSample = flags.has("--gc-each-sample");
const postgresUrl = process.env.RATH_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function onFresh(open: () => Promise<{ database: Parameters<typeof measureEngineSteps>[0]; dispose: () => Promise<void> }>, workers: number, sample: EngineBenchSize): Promise<number> {
  const { database, dispose } = await open();
  try {
    return await measureEngineSteps(database, sample, workers);
  } finally {
    await dispose();
  }
}

const MEASURES: Record<EngineBenchName, (sample: EngineBenchSize) => Promise<number>> = {
  engine_sqlite_1_worker_steps_per_s: (sample) => onFresh(temporarySqlite, 1, sample),
  engine_postgresql_1_worker_steps_per_s: (sample) => onFresh(() => temporaryPostgres(postgresUrl, 4), 1, sample),
  engine_postgresql_4_workers_steps_per_s: (sample) => onFresh(() => temporaryPostgres(postgresUrl, 10), 4, sample),
  peer_langgraph_sqlite_steps_per_s: (sample) => measureLangGraphSqliteSteps(sample),
};

const gc = garbageCollector();
const started = performance.now();
const loadBefore = loadavg()[0] as number;
// The host probe is for the table's footer only: no temporary file for `--json`.
const frameWriteBefore = flags.has("--json") ? 0 : walFrameWriteMicros();
const samples = new Map<EngineBenchName, number[]>();
const errors = new Map<EngineBenchName, string>();
// Negative repetitions are the warm-up: whole samples of every measure, not kept. Each repetition then takes one
// sample of every measure, starting one measure later than the previous (so no measure always follows the same one).
// No full collection between samples: a forced one let the objects and maps that each side's optimised code had
// embedded die, so that code was deoptimised ("weak objects") and compiled again inside the next timed phase, every
// sample; a long-running worker is not. Garbage a sample leaves is collected by the samples after it, on both sides.
gc();
for (let repeat = -warmUps; repeat < repeats; repeat++) {
  for (let offset = 0; offset < ENGINE_BENCH_NAMES.length; offset++) {
    const bench = ENGINE_BENCH_NAMES[(offset + Math.max(repeat, 0)) % ENGINE_BENCH_NAMES.length] as EngineBenchName;
    if (errors.has(bench)) continue;
    if (gcEachSample) gc();
    try {
      const value = await MEASURES[bench](size);
      if (repeat >= 0) samples.set(bench, [...(samples.get(bench) ?? []), value]);
    } catch (error) {
      errors.set(bench, (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "failed");
    }
  }
}
const results: EngineBenchResult[] = ENGINE_BENCH_NAMES.map((bench) => {
  const values = samples.get(bench);
  if (errors.has(bench) || values === undefined) return { bench, value: null, error: errors.get(bench) ?? "not run" };
  const summary = summarise(values);
  return { bench, value: summary.median, range: [summary.min, summary.max] };
});

if (flags.has("--json")) {
  for (const line of formatEngineJsonLines(results)) console.log(line);
} else {
  console.log(formatEngineTable(results, { quick }));
  const load = `load average ${loadBefore.toFixed(2)} at the start, ${(loadavg()[0] as number).toFixed(2)} at the end`;
  const frameWrites = `one WAL frame's writes (24 B + 2 KB at a position) ${frameWriteBefore.toFixed(2)} us at the start, ${walFrameWriteMicros().toFixed(2)} us at the end (bench/host-probe.ts)`;
  for (const bench of ENGINE_BENCH_NAMES) {
    const values = samples.get(bench);
    if (values !== undefined) console.log(`${bench}: samples in order ${values.map((value) => value.toFixed(0)).join(", ")}`);
  }
  console.log(
    `\n${size.runs} timed runs x ${size.agents + 2} checkpoints per sample after ${size.leadInRuns ?? 0} untimed lead-in run(s) on the same fresh database; ${warmUps} warm-up repetition(s) of every measure, then ${repeats} interleaved repetition(s), ${gcEachSample ? "a full collection before every sample" : "no full collection between samples"}; ${load}; ${frameWrites}; took ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
