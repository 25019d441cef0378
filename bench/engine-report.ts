/** Names, table and JSON lines of the engine benchmark (the `--json` contract: one `{"bench","value","reference"}` per line). */

/** The engine measures, in print order. */
export const ENGINE_BENCH_NAMES = [
  "engine_sqlite_1_worker_steps_per_s",
  "engine_postgresql_1_worker_steps_per_s",
  "engine_postgresql_4_workers_steps_per_s",
  "peer_langgraph_sqlite_steps_per_s",
] as const;
export type EngineBenchName = (typeof ENGINE_BENCH_NAMES)[number];

/** No reference implementation numbers are published for these measures. */
export const ENGINE_REFERENCES: Record<EngineBenchName, number | null> = {
  engine_sqlite_1_worker_steps_per_s: null,
  engine_postgresql_1_worker_steps_per_s: null,
  engine_postgresql_4_workers_steps_per_s: null,
  peer_langgraph_sqlite_steps_per_s: null,
};

/** One measured value, or null with the reason it could not run. */
export interface EngineBenchResult {
  bench: EngineBenchName;
  value: number | null;
  error?: string;
}

/** The JSON lines. */
export function formatEngineJsonLines(results: readonly EngineBenchResult[]): string[] {
  return results.map((result) =>
    JSON.stringify({ bench: result.bench, value: result.value, reference: ENGINE_REFERENCES[result.bench], ...(result.error === undefined ? {} : { error: result.error }) }),
  );
}

/** A plain-text table. */
export function formatEngineTable(results: readonly EngineBenchResult[]): string {
  const width = Math.max(...ENGINE_BENCH_NAMES.map((name) => name.length));
  const lines = [`${"measure".padEnd(width)}  steps/s`, `${"-".repeat(width)}  -------`];
  for (const result of results) lines.push(`${result.bench.padEnd(width)}  ${result.value === null ? `n/a (${result.error ?? "not run"})` : result.value.toFixed(0)}`);
  return lines.join("\n");
}
