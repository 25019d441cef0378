/**
 * Names, targets, table and JSON lines of the engine benchmark. The `--json` contract: one
 * `{"bench","value","reference"}` per line, where `reference` is LangGraph's steps per second measured in the same
 * run (the peer's value, for every engine measure and for the peer line itself) or null when it could not run.
 */
import { formatNumber } from "./report";

/** The engine measures, in print order. */
export const ENGINE_BENCH_NAMES = [
  "engine_sqlite_1_worker_steps_per_s",
  "engine_postgresql_1_worker_steps_per_s",
  "engine_postgresql_4_workers_steps_per_s",
  "peer_langgraph_sqlite_steps_per_s",
] as const;
export type EngineBenchName = (typeof ENGINE_BENCH_NAMES)[number];

/** SQLite, one worker, must commit at least this many times LangGraph's checkpoints per second. */
export const SQLITE_OVER_LANGGRAPH_TARGET = 3;
/** PostgreSQL with 4 workers must commit at least this many steps per second. */
export const POSTGRESQL_4_WORKERS_TARGET = 1000;

/** One measure: the median of its samples (steps per second) and their range, or null with the reason it could not run. */
export interface EngineBenchResult {
  bench: EngineBenchName;
  value: number | null;
  range?: [number, number];
  error?: string;
}

function peerValue(results: readonly EngineBenchResult[]): number | null {
  return results.find((result) => result.bench === "peer_langgraph_sqlite_steps_per_s")?.value ?? null;
}

/** The JSON lines. */
export function formatEngineJsonLines(results: readonly EngineBenchResult[]): string[] {
  const reference = peerValue(results);
  return results.map((result) =>
    JSON.stringify({ bench: result.bench, value: result.value, reference, ...(result.error === undefined ? {} : { error: result.error }) }),
  );
}

/** The target of a measure, judged in this run: `[goal, met]`, or null when it has none. */
export function engineTargetOf(result: EngineBenchResult, results: readonly EngineBenchResult[]): [string, boolean | null] | null {
  const peer = peerValue(results);
  if (result.bench === "engine_sqlite_1_worker_steps_per_s") {
    const goal = `>= ${SQLITE_OVER_LANGGRAPH_TARGET}x LangGraph`;
    if (result.value === null || peer === null) return [goal, null];
    return [`${goal} (${formatNumber(result.value / peer)}x)`, result.value >= SQLITE_OVER_LANGGRAPH_TARGET * peer];
  }
  if (result.bench === "engine_postgresql_4_workers_steps_per_s") return [`>= ${POSTGRESQL_4_WORKERS_TARGET}`, result.value === null ? null : result.value >= POSTGRESQL_4_WORKERS_TARGET];
  return null;
}

/** A plain-text table: measure | steps/s median (range) | target | met. */
export function formatEngineTable(results: readonly EngineBenchResult[], options: { quick?: boolean } = {}): string {
  const rows = [
    ["measure", "steps/s: median (range)", "target", "met"],
    ...results.map((result) => {
      const measured =
        result.value === null
          ? `n/a (${result.error ?? "not run"})`
          : `${result.value.toFixed(0)}${result.range === undefined ? "" : ` (${result.range[0].toFixed(0)}-${result.range[1].toFixed(0)})`}`;
      const target = engineTargetOf(result, results);
      const met = target === null ? "-" : options.quick ? "(quick sizes)" : target[1] === null ? "not measured" : target[1] ? "yes" : "NO";
      return [result.bench, measured, target?.[0] ?? "-", met];
    }),
  ];
  const widths = (rows[0] as string[]).map((_, column) => Math.max(...rows.map((cells) => (cells[column] ?? "").length)));
  const line = (cells: string[]): string => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(" | ")} |`;
  return [line(rows[0] as string[]), `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`, ...rows.slice(1).map(line)].join("\n");
}
