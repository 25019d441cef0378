import { describe, expect, it } from "vitest";
import { linearStretches, type StretchGraph } from "./linear-stretches";

/** A graph from `child: parents` lines, in the given order. */
function graphOf(lines: Record<string, string[]>): StretchGraph {
  const ids = Object.keys(lines);
  const children = new Map<string, string[]>();
  for (const id of ids) {
    for (const parent of lines[id] ?? []) {
      const list = children.get(parent);
      if (list === undefined) children.set(parent, [id]);
      else list.push(id);
    }
  }
  return { ids, parentsOf: (id) => lines[id] ?? [], childrenOf: (id) => children.get(id) ?? [] };
}

// a -> b -> c -> fork into (x1 -> x2) and (y1) -> merge m -> n -> o
const diamond = graphOf({ a: [], b: ["a"], c: ["b"], x1: ["c"], x2: ["x1"], y1: ["c"], m: ["x2", "y1"], n: ["m"], o: ["n"] });

describe("linearStretches", () => {
  it("finds plain chains of at least minSpine sessions and stops at forks and merges", () => {
    expect(linearStretches(diamond, { minSpine: 3, absorbForks: false })).toEqual([
      { spine: ["a", "b", "c"], members: ["a", "b", "c"], forks: 0 },
      { spine: ["m", "n", "o"], members: ["m", "n", "o"], forks: 0 },
    ]);
    expect(linearStretches(diamond, { minSpine: 4, absorbForks: false })).toEqual([]);
  });

  it("absorbs a closed fork/merge into the chain around it when asked, branch sessions in order", () => {
    expect(linearStretches(diamond, { minSpine: 4, absorbForks: true })).toEqual([
      { spine: ["a", "b", "c", "m", "n", "o"], members: ["a", "b", "c", "x1", "x2", "y1", "m", "n", "o"], forks: 1 },
    ]);
  });

  it("leaves a fork alone when a branch does not reach the merge, or the merge has another parent", () => {
    const open = graphOf({ a: [], b: ["a"], c: ["b"], x1: ["c"], y1: ["c"], m: ["x1"], n: ["m"], o: ["n"] });
    expect(linearStretches(open, { minSpine: 3, absorbForks: true }).map((stretch) => stretch.spine)).toEqual([
      ["a", "b", "c"],
      ["x1", "m", "n", "o"],
    ]);
    const extraParent = graphOf({ a: [], b: ["a"], c: ["b"], x1: ["c"], y1: ["c"], z: [], m: ["x1", "y1", "z"], n: ["m"], o: ["n"] });
    expect(linearStretches(extraParent, { minSpine: 3, absorbForks: true }).map((stretch) => stretch.forks)).toEqual([0, 0]);
    const shortcut = graphOf({ a: [], b: ["a"], c: ["b"], x1: ["c"], m: ["x1", "c"], n: ["m"], o: ["n"] });
    expect(linearStretches(shortcut, { minSpine: 3, absorbForks: true }).map((stretch) => stretch.spine)).toEqual([
      ["a", "b", "c"],
      ["m", "n", "o"],
    ]);
  });

  it("lets the branches of a short fork/merge form chains of their own", () => {
    const longBranches = graphOf({ c: [], x1: ["c"], x2: ["x1"], x3: ["x2"], y1: ["c"], m: ["x3", "y1"] });
    expect(linearStretches(longBranches, { minSpine: 3, absorbForks: true })).toEqual([{ spine: ["x1", "x2", "x3"], members: ["x1", "x2", "x3"], forks: 0 }]);
  });

  it("stays linear on a 5,000-thread fan-out of diamonds", () => {
    const lines: Record<string, string[]> = { root: [] };
    for (let thread = 0; thread < 5000; thread++) {
      lines[`t${thread}-0`] = ["root"];
      lines[`t${thread}-1`] = [`t${thread}-0`];
      lines[`t${thread}-l`] = [`t${thread}-1`];
      lines[`t${thread}-r`] = [`t${thread}-1`];
      lines[`t${thread}-m`] = [`t${thread}-l`, `t${thread}-r`];
      lines[`t${thread}-2`] = [`t${thread}-m`];
    }
    const stretches = linearStretches(graphOf(lines), { minSpine: 4, absorbForks: true });
    expect(stretches).toHaveLength(5000);
    expect(stretches[4999]).toEqual({ spine: ["t4999-0", "t4999-1", "t4999-m", "t4999-2"], members: ["t4999-0", "t4999-1", "t4999-l", "t4999-r", "t4999-m", "t4999-2"], forks: 1 });
  });
});
