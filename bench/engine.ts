/**
 * The engine benchmark: `npm run bench:engine [-- --json] [-- --quick] [-- --repeats N]`. Checkpoints committed per
 * second with an instant model on SQLite (1 worker) and PostgreSQL (1 worker, and 4 claim loops in one process),
 * and the same chain on LangGraph with its SQLite checkpointer. Every measure is warmed up once, then the four are
 * interleaved, repetition by repetition (default 3), each sample on a fresh database; the table shows the median and
 * range. PostgreSQL is RATH_TEST_POSTGRES_URL or postgresql://postgres@127.0.0.1:5432/postgres; when it is
 * unreachable its measures print n/a with the reason.
 */
import { loadavg } from "node:os";
import { formatEngineJsonLines, formatEngineTable, ENGINE_BENCH_NAMES, type EngineBenchName, type EngineBenchResult } from "./engine-report";
import { measureEngineSteps, measureLangGraphSqliteSteps, temporaryPostgres, temporarySqlite, type EngineBenchSize } from "./engine-measures";
import { summarise } from "./timing";

const args = process.argv.slice(2);
const flags = new Set(args);
const quick = flags.has("--quick");
const size: EngineBenchSize = quick ? { runs: 4, agents: 5 } : { runs: 20, agents: 10 };
const warmup: EngineBenchSize = quick ? { runs: 1, agents: 2 } : { runs: 4, agents: 10 };
const repeatsIndex = args.indexOf("--repeats");
const repeats = repeatsIndex >= 0 ? Number(args[repeatsIndex + 1]) : quick ? 1 : 3;
if (!Number.isInteger(repeats) || repeats < 1) {
  console.error(`--repeats needs a whole number >= 1; found '${args[repeatsIndex + 1] ?? ""}'`);
  process.exit(2);
}
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

const started = performance.now();
const loadBefore = loadavg()[0] as number;
const samples = new Map<EngineBenchName, number[]>();
const errors = new Map<EngineBenchName, string>();
for (let repeat = -1; repeat < repeats; repeat++) {
  for (const bench of ENGINE_BENCH_NAMES) {
    if (errors.has(bench)) continue;
    try {
      const value = await MEASURES[bench](repeat < 0 ? warmup : size);
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
  console.log(
    `\n${size.runs} runs x ${size.agents + 2} checkpoints per sample, ${repeats} interleaved repetition(s) after a warm-up; ${load}; took ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
