/**
 * The engine benchmark: `npm run bench:engine [-- --json] [-- --quick]`. Steps committed per second with the
 * scripted provider on SQLite (1 worker) and PostgreSQL (1 worker, and 4 claim loops in one process), and the
 * same chain on LangGraph with its SQLite checkpointer. PostgreSQL is RATH_TEST_POSTGRES_URL or
 * postgresql://postgres@127.0.0.1:5432/postgres; when it is unreachable its measures print n/a with the reason.
 */
import { formatEngineJsonLines, formatEngineTable, type EngineBenchName, type EngineBenchResult } from "./engine-report";
import { measureEngineSteps, measureLangGraphSqliteSteps, temporaryPostgres, temporarySqlite, type EngineBenchSize } from "./engine-measures";

const flags = new Set(process.argv.slice(2));
const size: EngineBenchSize = flags.has("--quick") ? { runs: 4, agents: 5 } : { runs: 20, agents: 10 };
const postgresUrl = process.env.RATH_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function measure(bench: EngineBenchName, body: () => Promise<number>): Promise<EngineBenchResult> {
  try {
    return { bench, value: await body() };
  } catch (error) {
    return { bench, value: null, error: error instanceof Error ? error.message : String(error) };
  }
}

const started = performance.now();
const results: EngineBenchResult[] = [];
results.push(
  await measure("engine_sqlite_1_worker_steps_per_s", async () => {
    const { database, dispose } = await temporarySqlite();
    try {
      return await measureEngineSteps(database, size, 1);
    } finally {
      await dispose();
    }
  }),
);
for (const [bench, workers] of [["engine_postgresql_1_worker_steps_per_s", 1], ["engine_postgresql_4_workers_steps_per_s", 4]] as const) {
  results.push(
    await measure(bench, async () => {
      const { database, dispose } = await temporaryPostgres(postgresUrl, workers * 2 + 2);
      try {
        return await measureEngineSteps(database, size, workers);
      } finally {
        await dispose();
      }
    }),
  );
}
results.push(await measure("peer_langgraph_sqlite_steps_per_s", () => measureLangGraphSqliteSteps(size)));

if (flags.has("--json")) {
  for (const line of formatEngineJsonLines(results)) console.log(line);
} else {
  console.log(formatEngineTable(results));
  console.log(`\n${size.runs} runs x ${size.agents + 2} steps per engine measure; took ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
