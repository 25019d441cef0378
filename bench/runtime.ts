/**
 * The runtime benchmark: `npm run bench:runtime [-- --json] [-- --quick] [-- --no-peers]`.
 *
 * Measures Session.fork and merge of 10k-chunk sessions, the lineage export of 10k sessions, the agent loop's
 * overhead per tool round and the heap of 1,000 forks, each warmed up and repeated (median), against the
 * Python reference; then the same tool loop through @openai/agents and @langchain/langgraph. The heap measure
 * needs a garbage collector: it is enabled at run time (see `garbageCollector`), so no node flag is needed.
 */
import { formatJsonLines, formatTable } from "./report";
import { FULL_SIZES, QUICK_SIZES, runPeerBenchmarks, runRuntimeBenchmarks } from "./run-benchmarks";

const flags = new Set(process.argv.slice(2));
const json = flags.has("--json");
const sizes = flags.has("--quick") ? QUICK_SIZES : FULL_SIZES;

const started = performance.now();
const results = await runRuntimeBenchmarks(sizes);
if (!flags.has("--no-peers")) results.push(...(await runPeerBenchmarks(sizes)));

if (json) {
  for (const line of formatJsonLines(results)) console.log(line);
} else {
  console.log(formatTable(results));
  console.log(`\n${sizes === QUICK_SIZES ? "quick sizes" : "full sizes"}; took ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
