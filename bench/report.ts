/**
 * Names, targets, JSON lines and the table of the runtime benchmark. The `--json` contract: one line per measure,
 * `{"bench","value","reference"}` (plus `"error"` when it could not run). `reference` is the Python
 * implementation's number for the measures it has one for (bench/references.json), the peer's own value measured in
 * the same run for peer measures, and null otherwise.
 */
import { isReferenceFresh, provenanceLine, type ReferenceFile } from "./references";

/** Loop lengths the agent loop is measured at, ours and the peers'. */
export const LOOP_LENGTHS = [10, 100, 1000] as const;
export type LoopLength = (typeof LOOP_LENGTHS)[number];

/** Our measures, in print order. */
export const BENCH_NAMES = [
  "fork_10k_us",
  "merge_10k_10k_us",
  "merge_read_10k_10k_us",
  "lineage_export_10k_ms",
  "loop_round_us_at_10",
  "loop_round_us_at_100",
  "loop_round_us_at_1000",
  "loop_round_late_us",
  "fork_bytes",
] as const;
export type BenchName = (typeof BENCH_NAMES)[number];

/** The same agent loop through peer libraries, at each loop length. */
export const PEER_BENCH_NAMES = [
  "peer_openai_agents_loop_round_us_at_10",
  "peer_openai_agents_loop_round_us_at_100",
  "peer_openai_agents_loop_round_us_at_1000",
  "peer_langgraph_loop_round_us_at_10",
  "peer_langgraph_loop_round_us_at_100",
  "peer_langgraph_loop_round_us_at_1000",
] as const;
export type PeerBenchName = (typeof PEER_BENCH_NAMES)[number];
export type AnyBenchName = BenchName | PeerBenchName;

/** Speed-up over the reference the timed measures must reach. */
export const SPEED_UP_TARGET = 10;
/** The loop at 1,000 rounds must be this many times faster than the reference, and than each peer at every length. */
export const LOOP_SPEED_UP_TARGET = 20;
/** Rounds 9,901-10,000 may cost at most this many times a round of the 1,000-round loop. */
export const LATE_ROUND_RATIO_TARGET = 1.5;
/** Bytes per fork must be at most this fraction of the reference's. */
export const FORK_BYTES_FRACTION = 0.5;

/** One measured value (the median of its samples); `value` is null (and `error` says why) when it could not run. */
export interface BenchResult {
  bench: AnyBenchName;
  value: number | null;
  /** The smallest and largest kept sample, when the value is a median of several. */
  range?: [number, number];
  error?: string;
  /** A human note printed under the table (not part of the JSON lines). */
  detail?: string;
}

/** The peer measure's loop length and our measure at that length. */
function peerParts(bench: PeerBenchName): { peer: string; length: LoopLength; ours: BenchName } {
  const match = /^peer_(openai_agents|langgraph)_loop_round_us_at_(\d+)$/.exec(bench) as RegExpExecArray;
  const length = Number(match[2]) as LoopLength;
  return { peer: match[1] === "openai_agents" ? "@openai/agents" : "LangGraph", length, ours: `loop_round_us_at_${length}` as BenchName };
}

function isPeer(bench: AnyBenchName): bench is PeerBenchName {
  return bench.startsWith("peer_");
}

/** The `reference` of a result's JSON line (see the file comment). */
export function referenceOf(result: BenchResult, references: ReferenceFile): number | null {
  if (isPeer(result.bench)) return result.value;
  return references.values[result.bench] ?? null;
}

/** One JSON line per result. */
export function formatJsonLines(results: readonly BenchResult[], references: ReferenceFile): string[] {
  return results.map((result) =>
    JSON.stringify({
      bench: result.bench,
      value: result.value,
      reference: referenceOf(result, references),
      ...(result.error !== undefined ? { error: result.error } : {}),
    }),
  );
}

/** A target judged on one result: what it asks, and whether it holds (null: cannot be judged now, with why). */
export interface TargetCheck {
  goal: string;
  met: boolean | null;
  why?: string;
}

function valueOf(results: readonly BenchResult[], bench: AnyBenchName): number | null {
  return results.find((result) => result.bench === bench)?.value ?? null;
}

/** The target of a measure in this run, or null when it has none. */
export function targetOf(result: BenchResult, results: readonly BenchResult[], references: ReferenceFile, now: Date = new Date()): TargetCheck | null {
  const value = result.value;
  const reference = references.values[result.bench] ?? null;
  const fresh = isReferenceFresh(references, now);
  const againstReference = (limit: number, goal: string): TargetCheck =>
    !fresh ? { goal, met: null, why: `stale reference (measured ${references.measuredOn}; re-measure it, see bench/README.md)` } : value === null ? { goal, met: null, why: "not measured" } : { goal, met: value <= limit };
  switch (result.bench) {
    case "fork_10k_us":
    case "merge_read_10k_10k_us":
    case "lineage_export_10k_ms":
      return reference === null ? null : againstReference(reference / SPEED_UP_TARGET, `<= ${formatNumber(reference / SPEED_UP_TARGET)} (${SPEED_UP_TARGET}x)`);
    case "loop_round_us_at_1000":
      return reference === null ? null : againstReference(reference / LOOP_SPEED_UP_TARGET, `<= ${formatNumber(reference / LOOP_SPEED_UP_TARGET)} (${LOOP_SPEED_UP_TARGET}x)`);
    case "fork_bytes":
      return reference === null ? null : againstReference(reference * FORK_BYTES_FRACTION, `<= ${formatNumber(reference * FORK_BYTES_FRACTION)} (half)`);
    case "loop_round_late_us": {
      const atThousand = valueOf(results, "loop_round_us_at_1000");
      const goal = `<= ${LATE_ROUND_RATIO_TARGET} x loop_round_us_at_1000`;
      if (value === null || atThousand === null) return { goal, met: null, why: "not measured" };
      return { goal: `${goal} (${formatNumber(value / atThousand)}x)`, met: value <= LATE_ROUND_RATIO_TARGET * atThousand };
    }
    default: {
      if (!isPeer(result.bench)) return null;
      const { length, ours } = peerParts(result.bench);
      const our = valueOf(results, ours);
      const goal = `ours >= ${LOOP_SPEED_UP_TARGET}x faster at ${length}`;
      if (value === null || our === null) return { goal, met: null, why: "not measured" };
      return { goal: `${goal} (${formatNumber(value / our)}x)`, met: value / our >= LOOP_SPEED_UP_TARGET };
    }
  }
}

/** Two or three significant digits, never exponent notation. */
export function formatNumber(value: number): string {
  if (value >= 100) return value.toFixed(0);
  if (value >= 10) return value.toFixed(1);
  if (value >= 1) return value.toFixed(2);
  return value.toFixed(3);
}

function label(bench: AnyBenchName): string {
  if (!isPeer(bench)) return bench;
  const { peer, length } = peerParts(bench);
  return `peer ${peer} loop_round_us_at_${length}`;
}

/** How the table judges targets: not at all for quick sizes (they are not the named measures). */
export interface TableOptions {
  now?: Date;
  quick?: boolean;
}

function row(result: BenchResult, results: readonly BenchResult[], references: ReferenceFile, options: TableOptions): string[] {
  if (result.value === null) return [label(result.bench), `could not run: ${result.error ?? "unknown reason"}`, "-", "-", "-", "-"];
  const measured = result.range === undefined ? formatNumber(result.value) : `${formatNumber(result.value)} (${formatNumber(result.range[0])}-${formatNumber(result.range[1])})`;
  const reference = isPeer(result.bench) ? null : (references.values[result.bench] ?? null);
  const speedUp = reference === null ? "-" : result.bench === "fork_bytes" ? `${formatNumber(reference / result.value)}x less` : `${formatNumber(reference / result.value)}x`;
  const target = targetOf(result, results, references, options.now);
  const met = target === null ? "-" : options.quick ? "(quick sizes)" : target.met === null ? (target.why ?? "-") : target.met ? "yes" : "NO";
  return [label(result.bench), measured, reference === null ? "-" : formatNumber(reference), speedUp, target?.goal ?? "-", met];
}

/** The human-readable table: measure | median (range) | reference | speed-up | target | met, then notes. */
export function formatTable(results: readonly BenchResult[], references: ReferenceFile, options: TableOptions = {}): string {
  const rows = [["measure", "median (range)", "reference", "speed-up", "target", "met"], ...results.map((result) => row(result, results, references, options))];
  const widths = (rows[0] as string[]).map((_, column) => Math.max(...rows.map((cells) => (cells[column] ?? "").length)));
  const line = (cells: string[]): string => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(" | ")} |`;
  const rule = `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`;
  const notes = results.filter((result) => result.detail !== undefined).map((result) => `${label(result.bench)}: ${result.detail}`);
  return [line(rows[0] as string[]), rule, ...rows.slice(1).map(line), "", provenanceLine(references), ...notes].join("\n");
}
