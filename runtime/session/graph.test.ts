import { describe, expect, it } from "vitest";
import { isRathError } from "../errors";
import { ancestors, descendants, edges, indexById, validateAcyclic } from "./graph";
import { Session } from "./session";

describe("graph helpers", () => {
  const root = Session.create("user", "root");
  const left = root.fork();
  const right = root.fork();
  const leftChild = left.fork();
  const merged = leftChild.merge(right);
  const all = [root, left, right, leftChild, merged];

  it("lists ancestors breadth-first, nearest first, each once", () => {
    const index = indexById(all);
    expect(ancestors(merged.id, index)).toEqual([leftChild.id, right.id, left.id, root.id]);
    expect(ancestors(root.id, index)).toEqual([]);
  });

  it("lists descendants breadth-first", () => {
    expect(descendants(root.id, all)).toEqual([left.id, right.id, leftChild.id, merged.id]);
    expect(descendants(merged.id, all)).toEqual([]);
  });

  it("lists edges (parent, child) in parent order", () => {
    expect(edges(all)).toEqual([
      [root.id, left.id],
      [root.id, right.id],
      [left.id, leftChild.id],
      [leftChild.id, merged.id],
      [right.id, merged.id],
    ]);
  });

  it("validateAcyclic accepts a DAG, names a missing parent, and detects a cycle", () => {
    expect(() => validateAcyclic(all)).not.toThrow();
    try {
      validateAcyclic([left, leftChild]);
      expect.unreachable();
    } catch (error) {
      expect(isRathError(error, "not_found")).toBe(true);
      expect((error as Error).message).toContain(root.id);
    }
    const cyclic = [
      { id: "a", parent_session_ids: ["c"] },
      { id: "b", parent_session_ids: ["a"] },
      { id: "c", parent_session_ids: ["b"] },
    ];
    expect(() => validateAcyclic(cyclic)).toThrowError(/cycle/);
  });

  it("handles deep lineages without recursion limits", () => {
    const chain = [{ id: "n0", parent_session_ids: [] as string[] }];
    for (let i = 1; i < 50_000; i++) chain.push({ id: `n${i}`, parent_session_ids: [`n${i - 1}`] });
    expect(() => validateAcyclic(chain)).not.toThrow();
    expect(ancestors("n49999", indexById(chain))).toHaveLength(49_999);
  });
});
