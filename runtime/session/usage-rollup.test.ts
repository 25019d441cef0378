import { describe, expect, it } from "vitest";
import { makeChunk } from "./chunk";
import { Session } from "./session";
import type { Usage } from "./usage";
import { cumulativeUsages, ownUsageOfChunks, subtreeUsage, sumUsage, totalUsage, type UsageNode } from "./usage-rollup";

const tokens = (total: number): Usage => ({ prompt_tokens: total - 1, completion_tokens: 1, total_tokens: total });
const node = (id: string, own: number | null, ...parentIds: string[]): UsageNode => ({ id, parentIds, ownUsage: own === null ? null : tokens(own) });
const totals = (map: Map<string, Usage | null>) => Object.fromEntries([...map].map(([id, usage]) => [id, usage?.total_tokens ?? null]));

describe("usage rollup", () => {
  // root(10) -> fork a, fork b; a -> loop a2 (100); b -> loop b2 (1000); merge m(a2, b2); m -> loop s (5)
  const diamond = [
    node("root", 10),
    node("a", null, "root"),
    node("b", null, "root"),
    node("a2", 100, "a", "agent-a"),
    node("b2", 1000, "b", "agent-b"),
    node("m", null, "a2", "b2"),
    node("s", 5, "m"),
  ];

  it("cumulative counts every ancestor once, so a merge counts the shared root once", () => {
    expect(totals(cumulativeUsages(diamond))).toEqual({ root: 10, a: 10, b: 10, a2: 110, b2: 1010, m: 1110, s: 1115 });
  });

  it("the run total is the sum of own usage, and equals the cumulative of the last session here", () => {
    expect(totalUsage(diamond)?.total_tokens).toBe(1115);
    expect(totalUsage(diamond)).toEqual({ prompt_tokens: 1115 - 4, completion_tokens: 4, total_tokens: 1115 });
  });

  it("subtree counts every descendant once", () => {
    expect(subtreeUsage("root", diamond)?.total_tokens).toBe(1115);
    expect(subtreeUsage("a", diamond)?.total_tokens).toBe(105);
    expect(subtreeUsage("b2", diamond)?.total_tokens).toBe(1005);
    expect(subtreeUsage("s", diamond)?.total_tokens).toBe(5);
    expect(subtreeUsage("missing", diamond)).toBeNull();
  });

  it("stays null when nothing reported usage, and handles nodes given children first", () => {
    expect(totals(cumulativeUsages([node("x", null), node("y", null, "x")]))).toEqual({ x: null, y: null });
    expect(totals(cumulativeUsages([node("child", 3, "parent"), node("parent", 4)]))).toEqual({ child: 7, parent: 4 });
    expect(sumUsage([null, tokens(2), undefined, tokens(3)])?.total_tokens).toBe(5);
  });

  it("own usage of a real agent-like session is the usage of the chunks after the inherited ones", () => {
    const input = Session.create("user", "question");
    const answer = makeChunk("assistant", { content: "answer", tool_calls: null }, { usage: tokens(42) });
    const loop = Session.derive({ chunks: input.chunks, parents: [input.id], kind: "op_session_loop", operator: "loop" }).append(answer);
    expect(ownUsageOfChunks(loop.chunks, input.chunks.length)?.total_tokens).toBe(42);
    const merged = loop.merge(loop.fork().append(makeChunk("assistant", { content: "more", tool_calls: null }, { usage: tokens(8) })));
    // The runtime's own `usage` of a merge sums its parents' (reference semantics): 42 + 8 here.
    expect(merged.usage?.total_tokens).toBe(42 + 8);
    expect(ownUsageOfChunks(merged.chunks, merged.chunks.length)).toBeNull();
  });

  it("is linear on a 20,000-long chain", () => {
    const chain = [node("n0", 1)];
    for (let index = 1; index < 20_000; index++) chain.push(node(`n${index}`, 1, `n${index - 1}`));
    expect(cumulativeUsages(chain).get("n19999")?.total_tokens).toBe(20_000);
  });
});
