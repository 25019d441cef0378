import { describe, expect, it } from "vitest";
import { ENGINE_BENCH_NAMES, formatEngineJsonLines, formatEngineTable } from "./engine-report";
import { measureEngineSteps, measureLangGraphSqliteSteps, temporarySqlite } from "./engine-measures";

describe("engine bench (tiny sizes, no timing assertions)", () => {
  it("prints one JSON line per measure with the agreed names", () => {
    const results = ENGINE_BENCH_NAMES.map((bench, index) => ({ bench, value: index === 2 ? null : 10 * (index + 1), ...(index === 2 ? { error: "unreachable" } : {}) }));
    const lines = formatEngineJsonLines(results).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.bench)).toEqual([
      "engine_sqlite_1_worker_steps_per_s",
      "engine_postgresql_1_worker_steps_per_s",
      "engine_postgresql_4_workers_steps_per_s",
      "peer_langgraph_sqlite_steps_per_s",
    ]);
    expect(lines.every((line) => Object.keys(line).slice(0, 3).join() === "bench,value,reference")).toBe(true);
    expect(lines[2]).toMatchObject({ value: null, error: "unreachable" });
    expect(formatEngineTable(results)).toContain("n/a (unreachable)");
  });

  it("measures the engine on SQLite and LangGraph on its SQLite checkpointer", async () => {
    const { database, dispose } = await temporarySqlite();
    try {
      const engine = await measureEngineSteps(database, { runs: 1, agents: 2 }, 1);
      expect(Number.isFinite(engine) && engine > 0).toBe(true);
    } finally {
      await dispose();
    }
    const peer = await measureLangGraphSqliteSteps({ runs: 1, agents: 2 });
    expect(Number.isFinite(peer) && peer > 0).toBe(true);
  }, 30_000);
});
