import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { measureLoopRound } from "./loop-measure";
import { measureLangGraphLoop } from "./peers/langgraph-loop";
import { measureOpenAiAgentsLoop } from "./peers/openai-agents-loop";
import { BENCH_NAMES, formatJsonLines, formatTable, PEER_BENCH_NAMES, REFERENCES } from "./report";
import { lineageGraph, measureFork, measureForkMemory, measureLineageExport, measureMerge, sessionWithChunks } from "./session-measures";
import { median } from "./timing";

const tiny = { warmups: 1, repeats: 3 };

function expectPositiveFinite(value: number): void {
  expect(Number.isFinite(value)).toBe(true);
  expect(value).toBeGreaterThan(0);
}

describe("bench measuring functions (tiny sizes, no timing assertions)", () => {
  it("builds sessions and lineage graphs of the requested size", () => {
    expect(sessionWithChunks(30).chunks.length).toBe(30);
    const graph = lineageGraph(12);
    expect(graph).toHaveLength(12);
    expect(graph.map((session) => session.lineage.lineage_kind)).toContain("op_merge");
    expect(graph.map((session) => session.lineage.lineage_kind)).toContain("op_detach");
  });

  it("fork, merge and lineage export report positive finite numbers", async () => {
    expectPositiveFinite(await measureFork(50, 20, tiny));
    expectPositiveFinite(await measureMerge(50, 20, tiny));
    expectPositiveFinite(await measureLineageExport(20, tiny));
  });

  it("fork memory reports the session bytes and a plausible ratio", () => {
    const memory = measureForkMemory(5_000, 10, 1);
    expectPositiveFinite(memory.ratio);
    expectPositiveFinite(memory.sessionBytes);
    expect(memory.ratio).toBeGreaterThan(0.5);
  });

  it("the agent loop runs on both fake models", async () => {
    expectPositiveFinite(await measureLoopRound(3, "instant"));
    expectPositiveFinite(await measureLoopRound(3, "scripted"));
  });

  it("the peer loops run", async () => {
    expectPositiveFinite(await measureOpenAiAgentsLoop(2));
    expectPositiveFinite(await measureLangGraphLoop(2));
  });

  it("median picks the middle value", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe("report format", () => {
  it("writes one JSON line per result with bench, value and reference, and errors for measures that could not run", () => {
    const lines = formatJsonLines([
      { bench: "fork_10k_us", value: 0.5 },
      { bench: "peer_langgraph_loop_round_us", value: null, error: "boom" },
    ]).map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual([
      { bench: "fork_10k_us", value: 0.5, reference: 7.9 },
      { bench: "peer_langgraph_loop_round_us", value: null, reference: null, error: "boom" },
    ]);
  });

  it("the table says whether each target is met", () => {
    const table = formatTable([
      { bench: "fork_10k_us", value: 0.5 },
      { bench: "merge_10k_10k_us", value: 40 },
      { bench: "fork_memory_ratio", value: 1.2 },
      { bench: "peer_openai_agents_loop_round_us", value: null, error: "cannot run" },
    ]);
    const rows = table.split("\n");
    expect(rows[0]).toMatch(/measure +\| ours +\| reference +\| speed-up +\| target met/);
    expect(rows.find((row) => row.includes("fork_10k_us"))).toMatch(/15\.8x +\| yes/);
    expect(rows.find((row) => row.includes("merge_10k_10k_us"))).toMatch(/1\.20x +\| NO/);
    expect(rows.find((row) => row.includes("fork_memory_ratio"))).toContain("yes (<= 1.5)");
    expect(rows.find((row) => row.includes("peer:openai-agents"))).toContain("could not run: cannot run");
  });
});

describe("bench/runtime.ts --json", () => {
  it("prints exactly the five runtime measures and the two peer measures, each a number with its reference", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "bench/runtime.ts", "--json", "--quick"], {
      cwd: process.cwd(),
      timeout: 60_000,
    });
    const records = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { bench: string; value: unknown; reference: unknown });
    expect(records.map((record) => record.bench)).toEqual([...BENCH_NAMES, ...PEER_BENCH_NAMES]);
    for (const record of records) {
      expect(Object.keys(record).sort()).toEqual(["bench", "reference", "value"]);
      expect(typeof record.value).toBe("number");
      expect(record.reference).toBe(REFERENCES[record.bench as keyof typeof REFERENCES]);
    }
  }, 60_000);

  it("runs one measure alone with --only, and refuses an unknown name", async () => {
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ["--import", "tsx", "bench/runtime.ts", "--only", "merge_10k_10k_us", "--quick"], {
      cwd: process.cwd(),
      timeout: 60_000,
    });
    const result = JSON.parse(stdout.trim()) as { bench: string; value: unknown };
    expect(result.bench).toBe("merge_10k_10k_us");
    expect(typeof result.value === "number" && result.value > 0).toBe(true);
    const failure = await run(process.execPath, ["--import", "tsx", "bench/runtime.ts", "--only", "nonsense"], { cwd: process.cwd() }).catch(
      (error: { code?: number; stderr?: string }) => error,
    );
    expect((failure as { code?: number }).code).toBe(2);
    expect((failure as { stderr?: string }).stderr).toContain("--only needs one of: fork_10k_us");
  }, 60_000);
});
