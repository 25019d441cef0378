import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { measureLineageExport } from "./lineage-export-measure";
import { MAX_CHUNKS, realisticLineageGraph } from "./lineage-graph";
import { measureLateRounds, measureLoopRound } from "./loop-measure";
import { measureLangGraphLoop } from "./peers/langgraph-loop";
import { measureOpenAiAgentsLoop } from "./peers/openai-agents-loop";
import { isReferenceFresh, loadReferences } from "./references";
import { BENCH_NAMES, formatJsonLines, formatTable, PEER_BENCH_NAMES, targetOf, type BenchResult } from "./report";
import { measureFork, measureForkBytes, measureMerge, measureMergeRead, mergePairs, readAllChunks } from "./session-measures";
import { isSteady, median, samplesAfterWarmUp, summarise } from "./timing";

const tiny = { warmups: 1, repeats: 3 };
const references = loadReferences();

function expectPositiveFinite(value: number): void {
  expect(Number.isFinite(value)).toBe(true);
  expect(value).toBeGreaterThan(0);
}

describe("bench measuring functions (tiny sizes, no timing assertions)", () => {
  it("builds a realistic lineage graph: every kind of step, parents first, no session over the chunk cap", () => {
    const graph = realisticLineageGraph(2_000);
    expect(graph).toHaveLength(2_000);
    const kinds = new Set(graph.map((session) => session.lineage.lineage_kind));
    for (const kind of ["leaf_user", "leaf_system", "op_session_loop", "op_fork", "op_merge", "op_detach", "op_session_compress"]) expect(kinds).toContain(kind);
    const seen = new Set<string>();
    for (const session of graph) {
      for (const parent of session.lineage.parent_session_ids) expect(seen.has(parent)).toBe(true);
      seen.add(session.id);
      expect(session.chunks.length).toBeLessThanOrEqual(MAX_CHUNKS);
    }
    // Deterministic: the same shape every run.
    expect(realisticLineageGraph(300).map((session) => session.lineage.lineage_kind)).toEqual(realisticLineageGraph(300).map((session) => session.lineage.lineage_kind));
  });

  it("merges pairs of equal and unequal rope heights and reads every chunk of the result", () => {
    const { pairs } = mergePairs(3_000);
    const heights = pairs.map(([left, right]) => [left.chunks.depth, right.chunks.depth]);
    expect(heights.some(([left, right]) => left === right)).toBe(true);
    expect(heights.some(([left, right]) => left !== right)).toBe(true);
    for (const [left, right] of pairs) {
      expect(left.chunks.length).toBe(3_000);
      expect(right.chunks.length).toBe(3_000);
      expect(readAllChunks(left.merge(right))).toBeGreaterThan(6_000 * 3);
    }
  });

  it("fork, merge, merge-and-read and lineage export report positive finite medians within their range", async () => {
    for (const samples of [await measureFork(50, 20, tiny), await measureMerge(50, 20, tiny), await measureMergeRead(50, 4, tiny), await measureLineageExport(20, { block: 1, minBlocks: 1, maxBlocks: 2, tolerance: 0.05 }, 3)]) {
      expectPositiveFinite(samples.median);
      expect(samples.values).toHaveLength(3);
      expect(samples.min).toBeLessThanOrEqual(samples.median);
      expect(samples.max).toBeGreaterThanOrEqual(samples.median);
    }
  });

  it("the steady warm-up discards blocks until one is no longer faster than the one before, then keeps the next samples", async () => {
    expect(isSteady([10, 10, 10], [9.6, 9.4, 9.5], 0.05)).toBe(true);
    expect(isSteady([10, 10, 10], [9.4, 9.4, 9.4], 0.05)).toBe(false);
    expect(isSteady([10, 10, 10], [30, 12, 11], 0.05)).toBe(true);
    const warmUp = { block: 3, minBlocks: 2, maxBlocks: 5, tolerance: 0.05 };
    // Faster block after block until the fourth (8, 8, 8 after 8.2, 8, 8): three blocks of 3 run before it, it is discarded too.
    const script = [40, 20, 15, 12, 11, 10, 8.2, 8, 8, 8, 8, 8, 1, 2, 3, 4, 5];
    let next = 0;
    const samples = await samplesAfterWarmUp(warmUp, 5, () => script[next++] as number);
    expect(samples.first).toBe(40);
    expect(samples.warmups).toBe(12);
    expect(samples.values).toEqual([1, 2, 3, 4, 5]);
    // Never steady: stops after maxBlocks.
    let value = 1000;
    const capped = await samplesAfterWarmUp(warmUp, 2, () => (value *= 0.5));
    expect(capped.warmups).toBe(15);
    expect(capped.values).toEqual([1000 * 0.5 ** 16, 1000 * 0.5 ** 17]);
    // minBlocks holds even when the second block is already steady.
    let calls = 0;
    const flat = await samplesAfterWarmUp({ ...warmUp, minBlocks: 3 }, 1, () => ++calls && 7);
    expect(flat.warmups).toBe(9);
    expect(calls).toBe(10);
  });

  it("fork bytes reports a plausible size per fork and the session's size", () => {
    const bytes = measureForkBytes(2_000, 5_000, 1);
    expectPositiveFinite(bytes.median);
    expectPositiveFinite(bytes.sessionBytes);
    expect(bytes.median).toBeLessThan(bytes.sessionBytes);
  });

  it("fork bytes readings agree with each other: no compiler metadata lands inside a reading", () => {
    const bytes = measureForkBytes(2_000, 5_000, 5);
    // A fork's objects are the same every time; an optimising compile finishing mid-reading added 50+ bytes per fork.
    expect(bytes.max - bytes.min).toBeLessThan(2);
  });

  it("the agent loop runs on both fake models, several runs of one agent, and times a late window", async () => {
    expectPositiveFinite(await measureLoopRound(3, "instant", 2));
    expectPositiveFinite(await measureLoopRound(3, "scripted", 2));
    expectPositiveFinite(await measureLateRounds(30, 5));
    expectPositiveFinite(await measureLateRounds(30, 5, "scripted"));
  });

  it("the peer loops run, several runs each", async () => {
    expectPositiveFinite(await measureOpenAiAgentsLoop(2, 2));
    expectPositiveFinite(await measureLangGraphLoop(2, 2));
  });

  it("median and summaries pick the middle value and the range", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(summarise([5, 1, 3])).toEqual({ median: 3, min: 1, max: 5, values: [5, 1, 3] });
  });
});

describe("references", () => {
  it("come from one file with their provenance", () => {
    expect(references).toMatchObject({ version: "1.2.0", interpreter: "CPython 3.11.7", measuredOn: "2026-11-30" });
    expect(references.values).toEqual({
      fork_10k_us: 4.2,
      merge_10k_10k_us: 36.8,
      merge_read_10k_10k_us: 1250,
      lineage_export_10k_ms: 67,
      loop_round_us_at_1000: 260,
      fork_bytes: 437,
    });
  });

  it("refuse a malformed file, naming the field", () => {
    const directory = mkdtempSync(join(tmpdir(), "rath-bench-references-"));
    try {
      const file = join(directory, "references.json");
      writeFileSync(file, JSON.stringify({ ...references, measuredOn: "last week" }));
      expect(() => loadReferences(new URL(`file://${file}`))).toThrow(/malformed: measuredOn/);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("go stale after 90 days", () => {
    expect(isReferenceFresh({ measuredOn: "2026-11-30" }, new Date("2027-01-15T00:00:00Z"))).toBe(true);
    expect(isReferenceFresh({ measuredOn: "2026-11-30" }, new Date("2027-06-01T00:00:00Z"))).toBe(false);
  });
});

describe("report format", () => {
  const results: BenchResult[] = [
    { bench: "fork_10k_us", value: 0.3, range: [0.25, 0.4] },
    { bench: "merge_read_10k_10k_us", value: 200 },
    { bench: "loop_round_us_at_10", value: 5 },
    { bench: "loop_round_us_at_1000", value: 10 },
    { bench: "loop_round_late_us", value: 16 },
    { bench: "fork_bytes", value: 180 },
    { bench: "peer_langgraph_loop_round_us_at_10", value: 90 },
    { bench: "peer_openai_agents_loop_round_us_at_1000", value: null, error: "boom" },
  ];
  const measuredOn = new Date("2026-12-01T00:00:00Z");

  it("writes one JSON line per result: the reference's number, the peer's own value for peers, null otherwise", () => {
    const lines = formatJsonLines(results, references).map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual([
      { bench: "fork_10k_us", value: 0.3, reference: 4.2 },
      { bench: "merge_read_10k_10k_us", value: 200, reference: 1250 },
      { bench: "loop_round_us_at_10", value: 5, reference: null },
      { bench: "loop_round_us_at_1000", value: 10, reference: 260 },
      { bench: "loop_round_late_us", value: 16, reference: null },
      { bench: "fork_bytes", value: 180, reference: 437 },
      { bench: "peer_langgraph_loop_round_us_at_10", value: 90, reference: 90 },
      { bench: "peer_openai_agents_loop_round_us_at_1000", value: null, reference: null, error: "boom" },
    ]);
  });

  it("judges each target in the same run: against the reference, the 1,000-round loop, or the peer", () => {
    const judged = (bench: BenchResult["bench"]) => targetOf(results.find((result) => result.bench === bench) as BenchResult, results, references, measuredOn);
    expect(judged("fork_10k_us")).toMatchObject({ met: true });
    expect(judged("merge_read_10k_10k_us")).toMatchObject({ met: false });
    expect(judged("loop_round_us_at_1000")).toMatchObject({ met: true });
    expect(judged("loop_round_late_us")).toMatchObject({ met: false, goal: expect.stringContaining("1.60x") as unknown });
    expect(judged("fork_bytes")).toMatchObject({ met: true });
    expect(judged("peer_langgraph_loop_round_us_at_10")).toMatchObject({ met: false, goal: expect.stringContaining("18.0x") as unknown });
    expect(judged("loop_round_us_at_10")).toBeNull();
  });

  it("prints median and range, and never says met against a stale reference", () => {
    const fresh = formatTable(results, references, { now: measuredOn }).split("\n");
    expect(fresh[0]).toMatch(/measure +\| median \(range\) +\| reference +\| speed-up +\| target +\| met/);
    expect(fresh.find((row) => row.startsWith("| fork_10k_us "))).toMatch(/0\.300 \(0\.250-0\.400\) +\| 4\.20 +\| 14\.0x +\| <= 0\.420 \(10x\) +\| yes/);
    expect(fresh.find((row) => row.includes("peer @openai/agents loop_round_us_at_1000"))).toContain("could not run: boom");
    expect(fresh.some((row) => row.startsWith("reference: OpenRath"))).toBe(true);
    const stale = formatTable(results, references, { now: new Date("2027-12-01T00:00:00Z") }).split("\n");
    expect(stale.find((row) => row.startsWith("| fork_10k_us "))).toContain("stale reference (measured 2026-11-30");
    expect(stale.find((row) => row.startsWith("| fork_10k_us "))).not.toMatch(/\| yes/);
    const quick = formatTable(results, references, { now: measuredOn, quick: true }).split("\n");
    expect(quick.find((row) => row.startsWith("| fork_10k_us "))).toContain("(quick sizes)");
  });
});

describe("bench/runtime.ts", () => {
  const run = promisify(execFile);

  it("--json prints exactly every measure in order, each {bench, value, reference} with a number", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "bench/runtime.ts", "--json", "--quick", "--in-process"], { cwd: process.cwd(), timeout: 170_000 });
    const records = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { bench: string; value: unknown; reference: unknown });
    expect(records.map((record) => record.bench)).toEqual([...BENCH_NAMES, ...PEER_BENCH_NAMES]);
    for (const record of records) {
      expect(Object.keys(record)).toEqual(["bench", "value", "reference"]);
      expect(typeof record.value).toBe("number");
      if (record.bench.startsWith("peer_")) expect(record.reference).toBe(record.value);
      else expect(record.reference).toBe(references.values[record.bench] ?? null);
    }
  }, 180_000);

  it("runs one group with --only (one JSON result per line), and refuses an unknown name", async () => {
    const group = await run(process.execPath, ["--import", "tsx", "bench/runtime.ts", "--only", "merge", "--quick"], { cwd: process.cwd(), timeout: 60_000 });
    const results = group.stdout.trim().split("\n").map((line) => JSON.parse(line) as { bench: string; value: unknown; range: unknown });
    expect(results.map((result) => result.bench)).toEqual(["merge_10k_10k_us", "merge_read_10k_10k_us"]);
    expect(results.every((result) => typeof result.value === "number" && result.value > 0 && Array.isArray(result.range))).toBe(true);
    const failure = await run(process.execPath, ["--import", "tsx", "bench/runtime.ts", "--only", "nonsense"], { cwd: process.cwd() }).catch(
      (error: { code?: number; stderr?: string }) => error,
    );
    expect((failure as { code?: number }).code).toBe(2);
    expect((failure).stderr).toContain("--only needs a group (fork, merge");
  }, 130_000);
});
