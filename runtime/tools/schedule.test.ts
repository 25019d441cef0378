import { describe, expect, it } from "vitest";
import { planPhases, runPhases } from "./schedule";

describe("planPhases", () => {
  it("puts parallel-safe calls in lanes by key and isolates the others", () => {
    const plan = planPhases([
      { parallelSafe: true, key: "a" },
      { parallelSafe: true, key: "b" },
      { parallelSafe: true, key: "a" },
      { parallelSafe: false, key: "exec" },
      { parallelSafe: true, key: null },
      { parallelSafe: true, key: null },
      { parallelSafe: false, key: "exec" },
    ]);
    expect(plan).toEqual([[[0, 2], [1]], [[3]], [[4], [5]], [[6]]]);
  });

  it("plans nothing for no calls", () => {
    expect(planPhases([])).toEqual([]);
  });
});

describe("runPhases", () => {
  it("returns results by call index whatever order they finish in", async () => {
    const delays = [30, 0, 10];
    const results = await runPhases([[[0], [1], [2]]], 3, async (index) => {
      await new Promise((resolve) => setTimeout(resolve, delays[index]));
      return `r${index}`;
    });
    expect(results).toEqual(["r0", "r1", "r2"]);
  });
});
