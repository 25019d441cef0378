import { describe, expect, it } from "vitest";
import { topologicalOrder } from "./graph";
import { Session } from "./session";

const node = (id: string, ...parents: string[]) => ({ id, parent_session_ids: parents });
const ids = (nodes: ReadonlyArray<{ id: string }>) => nodes.map((entry) => entry.id);

describe("topologicalOrder", () => {
  it("puts a merge after both parents even when it was created first", () => {
    const order = topologicalOrder([node("merge", "left", "right"), node("root"), node("left", "root"), node("right", "root")]);
    expect(ids(order)).toEqual(["root", "left", "right", "merge"]);
  });

  it("keeps the given order wherever lineage allows (stable)", () => {
    const given = [node("a"), node("b"), node("c", "a"), node("d"), node("e", "b"), node("f", "c", "e")];
    expect(ids(topologicalOrder(given))).toEqual(["a", "b", "c", "d", "e", "f"]);
    const shuffled = [node("f", "c", "e"), node("d"), node("e", "b"), node("c", "a"), node("b"), node("a")];
    expect(ids(topologicalOrder(shuffled))).toEqual(["d", "b", "e", "a", "c", "f"]);
  });

  it("ignores parents outside the list, lists a repeated id once and keeps a cycle at the end", () => {
    expect(ids(topologicalOrder([node("x", "elsewhere"), node("y", "x"), node("x")]))).toEqual(["x", "y"]);
    expect(ids(topologicalOrder([node("p", "q"), node("q", "p"), node("r")]))).toEqual(["r", "p", "q"]);
  });

  it("orders real sessions and a 50,000-long chain without recursion", () => {
    const root = Session.create("user", "root");
    const left = root.fork();
    const right = root.fork();
    const merged = left.merge(right);
    expect(ids(topologicalOrder([merged, right, left, root]))).toEqual([root.id, right.id, left.id, merged.id]);
    const chain = [node("n0")];
    for (let index = 1; index < 50_000; index++) chain.push(node(`n${index}`, `n${index - 1}`));
    const reversed = [...chain].reverse();
    expect(ids(topologicalOrder(reversed))).toEqual(ids(chain));
  });
});
