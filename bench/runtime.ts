/**
 * The runtime benchmark: `npm run bench:runtime [-- --json] [-- --quick] [-- --no-peers] [-- --in-process]`.
 *
 * Measures Session.fork and merge of 10k-chunk sessions, the lineage export of 10k sessions, the agent loop's
 * overhead per tool round and the heap of 1,000 forks, each warmed up and repeated (median), against the
 * Python reference; then the same tool loop through @openai/agents and @langchain/langgraph. Each measure runs
 * in its own node process (`--only NAME`) unless `--in-process` is given. The heap measure needs a garbage
 * collector: it is enabled at run time (see `garbageCollector`), so no node flag is needed.
 */
import { runIsolated } from "./isolated-run";
import { BENCH_NAMES, formatJsonLines, formatTable, PEER_BENCH_NAMES, type BenchName, type PeerBenchName } from "./report";
import { FULL_SIZES, QUICK_SIZES, runBenchmark, runPeerBenchmarks, runRuntimeBenchmarks } from "./run-benchmarks";

const args = process.argv.slice(2);
const flags = new Set(args);
const json = flags.has("--json");
const quick = flags.has("--quick");
const sizes = quick ? QUICK_SIZES : FULL_SIZES;
const onlyIndex = args.indexOf("--only");
const names: readonly (BenchName | PeerBenchName)[] = [...BENCH_NAMES, ...PEER_BENCH_NAMES];

if (onlyIndex >= 0) {
  const only = args[onlyIndex + 1];
  const name = names.find((candidate) => candidate === only);
  if (name === undefined) {
    console.error(`--only needs one of: ${names.join(", ")}; found '${only ?? ""}'`);
    process.exit(2);
  }
  console.log(JSON.stringify(await runBenchmark(name, sizes)));
} else {
  const started = performance.now();
  const withPeers = !flags.has("--no-peers");
  const results = flags.has("--in-process")
    ? [...(await runRuntimeBenchmarks(sizes)), ...(withPeers ? await runPeerBenchmarks(sizes) : [])]
    : await runIsolated(withPeers ? names : BENCH_NAMES, quick ? ["--quick"] : []);

  if (json) {
    for (const line of formatJsonLines(results)) console.log(line);
  } else {
    console.log(formatTable(results));
    const mode = flags.has("--in-process") ? "in one process" : "each measure in its own process";
    console.log(`\n${quick ? "quick sizes" : "full sizes"}, ${mode}; took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}
