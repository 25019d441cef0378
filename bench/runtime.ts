/**
 * The runtime benchmark: `npm run bench:runtime [-- --json] [-- --quick] [-- --no-peers] [-- --in-process] [-- --only NAME]`.
 *
 * Measures Session fork and merge (alone, and with every chunk of the result read) of 10k-chunk sessions, the
 * lineage export of a realistic 10k-session graph, the agent loop per round at 10, 100 and 1,000 rounds and late in a
 * 10,000-round run, and the heap bytes of a fork, against the Python reference (bench/references.json); the same loop
 * runs through @openai/agents and LangGraph, interleaved with ours. Each group of measures runs in its own node
 * process (`--only GROUP|MEASURE`) unless `--in-process` is given. The heap measure needs a garbage collector: it is
 * enabled at run time (see `garbageCollector`), so no node flag is needed.
 */
import { loadavg } from "node:os";
import { runIsolated } from "./isolated-run";
import { loadReferences } from "./references";
import { BENCH_NAMES, formatJsonLines, formatTable, PEER_BENCH_NAMES, type AnyBenchName, type BenchResult } from "./report";
import { BENCH_GROUPS, FULL_SIZES, groupFor, QUICK_SIZES, runGroup } from "./run-benchmarks";

const args = process.argv.slice(2);
const flags = new Set(args);
const json = flags.has("--json");
const quick = flags.has("--quick");
const peers = !flags.has("--no-peers");
const sizes = quick ? QUICK_SIZES : FULL_SIZES;
const onlyIndex = args.indexOf("--only");
const ORDER: readonly AnyBenchName[] = [...BENCH_NAMES, ...PEER_BENCH_NAMES];

function inOrder(results: readonly BenchResult[]): BenchResult[] {
  return [...results].sort((a, b) => ORDER.indexOf(a.bench) - ORDER.indexOf(b.bench));
}

if (onlyIndex >= 0) {
  const only = args[onlyIndex + 1] ?? "";
  const group = groupFor(only);
  if (group === undefined) {
    console.error(`--only needs a group (${BENCH_GROUPS.map((entry) => entry.name).join(", ")}) or a measure (${ORDER.join(", ")}); found '${only}'`);
    process.exit(2);
  }
  const results = await runGroup(group, sizes, { peers });
  for (const entry of results) if (entry.bench === only || group.name === only) console.log(JSON.stringify(entry));
} else {
  const started = performance.now();
  const loadBefore = loadavg()[0] as number;
  const references = loadReferences();
  const childFlags = [...(quick ? ["--quick"] : []), ...(peers ? [] : ["--no-peers"])];
  const results = inOrder(
    flags.has("--in-process")
      ? (await sequential(BENCH_GROUPS.map((group) => () => runGroup(group, sizes, { peers })))).flat()
      : await runIsolated(BENCH_GROUPS, childFlags, peers),
  );
  if (json) {
    for (const line of formatJsonLines(results, references)) console.log(line);
  } else {
    console.log(formatTable(results, references, { quick }));
    const mode = flags.has("--in-process") ? "in one process" : "each group of measures in its own process";
    const load = `load average ${loadBefore.toFixed(2)} at the start, ${(loadavg()[0] as number).toFixed(2)} at the end`;
    console.log(`\n${quick ? "QUICK sizes (numbers are not the named measures)" : "full sizes"}, ${mode}; ${load}; took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

async function sequential<T>(tasks: readonly (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = [];
  for (const task of tasks) out.push(await task());
  return out;
}
