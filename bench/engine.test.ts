import { describe, expect, it } from "vitest";
import { ENGINE_BENCH_NAMES, engineTargetOf, formatEngineJsonLines, formatEngineTable, type EngineBenchResult } from "./engine-report";
import { measureEngineSteps, measureLangGraphSqliteSteps, temporarySqlite } from "./engine-measures";

describe("engine bench (tiny sizes, no timing assertions)", () => {
  const results: EngineBenchResult[] = [
    { bench: "engine_sqlite_1_worker_steps_per_s", value: 3000, range: [2500, 3100] },
    { bench: "engine_postgresql_1_worker_steps_per_s", value: 400 },
    { bench: "engine_postgresql_4_workers_steps_per_s", value: null, error: "unreachable" },
    { bench: "peer_langgraph_sqlite_steps_per_s", value: 800, range: [700, 900] },
  ];

  it("prints one JSON line per measure with the agreed names, LangGraph's value of the same run as the reference", () => {
    const lines = formatEngineJsonLines(results).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.bench)).toEqual([...ENGINE_BENCH_NAMES]);
    expect(lines.every((line) => Object.keys(line).slice(0, 3).join() === "bench,value,reference")).toBe(true);
    expect(lines.map((line) => line.reference)).toEqual([800, 800, 800, 800]);
    expect(lines[2]).toMatchObject({ value: null, error: "unreachable" });
  });

  it("judges SQLite against LangGraph in the same run and PostgreSQL with 4 workers against 1,000 steps/s", () => {
    expect(engineTargetOf(results[0] as EngineBenchResult, results)).toEqual([">= 3x LangGraph (3.75x)", true]);
    expect(engineTargetOf(results[2] as EngineBenchResult, results)).toEqual([">= 1000", null]);
    expect(engineTargetOf(results[1] as EngineBenchResult, results)).toBeNull();
    const table = formatEngineTable(results);
    expect(table).toContain("3000 (2500-3100)");
    expect(table).toContain("n/a (unreachable)");
  });

  it("measures the engine on SQLite and LangGraph on its SQLite checkpointer, counting checkpoints on both", async () => {
    const { database, dispose } = await temporarySqlite();
    try {
      const engine = await measureEngineSteps(database, { runs: 1, agents: 2 }, 1);
      expect(Number.isFinite(engine) && engine > 0).toBe(true);
      expect(await database.client.checkpoint.count()).toBe(4);
    } finally {
      await dispose();
    }
    const peer = await measureLangGraphSqliteSteps({ runs: 2, agents: 2 });
    expect(Number.isFinite(peer) && peer > 0).toBe(true);
  }, 30_000);

  it("runs the lead-in runs first on the same database, untimed, on both sides", async () => {
    const { database, dispose } = await temporarySqlite();
    try {
      const engine = await measureEngineSteps(database, { runs: 1, agents: 2, leadInRuns: 2 }, 1);
      expect(Number.isFinite(engine) && engine > 0).toBe(true);
      expect(await database.client.checkpoint.count()).toBe(12);
      expect(await database.client.run.count({ where: { status: "succeeded" } })).toBe(3);
    } finally {
      await dispose();
    }
    // LangGraph counts only the timed runs' checkpoints (it throws when their count is not runs x (agents + 2)).
    const peer = await measureLangGraphSqliteSteps({ runs: 2, agents: 2, leadInRuns: 3 });
    expect(Number.isFinite(peer) && peer > 0).toBe(true);
  }, 30_000);
});
