/** The five measures of the runtime benchmark, in the order they are printed (the `--json` contract). */
export const BENCH_NAMES = ["fork_10k_us", "merge_10k_10k_us", "lineage_export_10k_ms", "loop_round_us", "fork_memory_ratio"] as const;
export type BenchName = (typeof BENCH_NAMES)[number];

/** The same agent loop measured through peer libraries (printed beside ours). */
export const PEER_BENCH_NAMES = ["peer_openai_agents_loop_round_us", "peer_langgraph_loop_round_us"] as const;
export type PeerBenchName = (typeof PEER_BENCH_NAMES)[number];

/** Reference numbers of the Python implementation on these machines (null: none published). */
export const REFERENCES: Record<BenchName | PeerBenchName, number | null> = {
  fork_10k_us: 7.9,
  merge_10k_10k_us: 48,
  lineage_export_10k_ms: 92,
  loop_round_us: 287,
  fork_memory_ratio: null,
  peer_openai_agents_loop_round_us: null,
  peer_langgraph_loop_round_us: null,
};

/** Timed measures must be this many times faster than the reference. */
export const SPEED_UP_TARGET = 10;
/** Heap of 1,000 forks plus the session over the session alone must stay at or under this. */
export const MEMORY_RATIO_TARGET = 1.5;

/** One measured value; `value` is null (and `error` says why) when a measure could not run. */
export interface BenchResult {
  bench: BenchName | PeerBenchName;
  value: number | null;
  error?: string;
  /** A human note printed under the table (not part of the JSON lines). */
  detail?: string;
}

const LABELS: Record<BenchName | PeerBenchName, string> = {
  fork_10k_us: "fork_10k_us",
  merge_10k_10k_us: "merge_10k_10k_us",
  lineage_export_10k_ms: "lineage_export_10k_ms",
  loop_round_us: "loop_round_us",
  fork_memory_ratio: "fork_memory_ratio",
  peer_openai_agents_loop_round_us: "peer:openai-agents loop_round_us",
  peer_langgraph_loop_round_us: "peer:langgraph loop_round_us",
};

/** One line per result: `{"bench","value","reference"}` (plus `"error"` when the measure could not run). */
export function formatJsonLines(results: readonly BenchResult[]): string[] {
  return results.map((result) =>
    JSON.stringify({
      bench: result.bench,
      value: result.value,
      reference: REFERENCES[result.bench],
      ...(result.error !== undefined ? { error: result.error } : {}),
    }),
  );
}

function formatNumber(value: number): string {
  if (value >= 100) return value.toFixed(0);
  if (value >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function row(result: BenchResult, ourLoop: number | null): string[] {
  const label = LABELS[result.bench];
  if (result.value === null) return [label, `could not run: ${result.error ?? "unknown reason"}`, "-", "-", "-"];
  const reference = REFERENCES[result.bench];
  if (result.bench === "fork_memory_ratio") {
    return [label, formatNumber(result.value), "-", "-", `${result.value <= MEMORY_RATIO_TARGET ? "yes" : "NO"} (<= ${MEMORY_RATIO_TARGET})`];
  }
  if (result.bench.startsWith("peer_")) {
    const versus = ourLoop === null ? "-" : `ours is ${formatNumber(result.value / ourLoop)}x faster`;
    return [label, formatNumber(result.value), "-", "-", versus];
  }
  if (reference === null) return [label, formatNumber(result.value), "-", "-", "-"];
  const speedUp = reference / result.value;
  return [label, formatNumber(result.value), formatNumber(reference), `${formatNumber(speedUp)}x`, speedUp >= SPEED_UP_TARGET ? "yes" : "NO"];
}

/** The human-readable table: measure | ours | reference | speed-up | target met. */
export function formatTable(results: readonly BenchResult[]): string {
  const ourLoop = results.find((result) => result.bench === "loop_round_us")?.value ?? null;
  const rows = [["measure", "ours", "reference", "speed-up", "target met"], ...results.map((result) => row(result, ourLoop))];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((cells) => (cells[column] ?? "").length)));
  const line = (cells: string[]): string => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(" | ")} |`;
  const rule = `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`;
  const notes = results.filter((result) => result.detail !== undefined).map((result) => `${LABELS[result.bench]}: ${result.detail}`);
  return [line(rows[0]!), rule, ...rows.slice(1).map(line), ...(notes.length > 0 ? ["", ...notes] : [])].join("\n");
}
