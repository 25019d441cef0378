import { describe, expect, it } from "vitest";
import { graphSession } from "../run-state/testing-sessions";
import { BUNDLE_FAN_OUT, chainIdOf, COLLAPSE_CHAINS_ABOVE, toFlowGraph } from "./to-flow-graph";

const failing = { toolErrors: { count: 1, firstIndex: 2 } };

describe("toFlowGraph", () => {
  // input -> fork a, fork b; a -> loop pros (prompt p1), b -> loop cons (prompt p2, a failed tool); merge; summary loop
  const sessions = [
    graphSession("input-1"),
    graphSession("fork-a", ["input-1"], "op_fork"),
    graphSession("fork-b", ["input-1"], "op_fork"),
    graphSession("pros-prompt", [], "leaf_system"),
    graphSession("pros-1", ["fork-a", "pros-prompt"], "op_session_loop"),
    graphSession("cons-prompt", [], "leaf_system"),
    graphSession("cons-1", ["fork-b", "cons-prompt"], "op_session_loop", failing),
    graphSession("merge-1", ["pros-1", "cons-1"], "op_merge"),
    graphSession("summary-1", ["merge-1"], "op_session_loop"),
  ];

  it("folds agent prompt sessions into their turn and keeps fork and merge edges exact", () => {
    const projection = toFlowGraph({ sessions, minChainLength: 99 });
    expect(projection.nodes.map((node) => node.id)).toEqual(["input-1", "fork-a", "fork-b", "pros-1", "cons-1", "merge-1", "summary-1"]);
    expect(projection.nodeOfSession.get("pros-prompt")).toBe("pros-1");
    const session = projection.nodes.find((node) => node.id === "pros-1")?.data;
    expect(session).toMatchObject({ kind: "session", promptSessionId: "pros-prompt" });
    const edges = projection.edges.map((edge) => `${edge.source}->${edge.target}:${edge.kind}`);
    expect(edges).toEqual(["input-1->fork-a:fork", "input-1->fork-b:fork", "fork-a->pros-1:loop", "fork-b->cons-1:loop", "pros-1->merge-1:merge", "cons-1->merge-1:merge", "merge-1->summary-1:loop"]);
    // An agent without instructions has an empty root of its own: folded the same way.
    const empty = toFlowGraph({ sessions: sessions.map((session) => (session.id === "pros-prompt" ? { ...session, chunkCount: 0, lineage: { ...session.lineage, lineage_kind: "unknown" } } : session)), minChainLength: 99 });
    expect(empty.nodeOfSession.get("pros-prompt")).toBe("pros-1");
    const shown = toFlowGraph({ sessions, minChainLength: 99, showPromptSessions: true });
    expect(shown.nodes).toHaveLength(9);
    expect(shown.edges.filter((edge) => edge.source === "pros-prompt")).toHaveLength(1);
  });

  it("marks the path from the root to each failure, and only that path", () => {
    const projection = toFlowGraph({ sessions, minChainLength: 99 });
    expect(projection.failingSessionIds).toEqual(["cons-1"]);
    expect([...projection.failurePath].sort()).toEqual(["cons-1", "cons-prompt", "fork-b", "input-1"]);
    expect(projection.edges.filter((edge) => edge.onFailurePath).map((edge) => edge.id)).toEqual(["input-1->fork-b", "fork-b->cons-1"]);
    expect(projection.nodes.find((node) => node.id === "cons-1")?.data).toMatchObject({ failed: true, onFailurePath: true });
    expect(projection.nodes.find((node) => node.id === "pros-1")?.data).toMatchObject({ failed: false, onFailurePath: false });
  });

  it("collapses long linear chains into one node, except when expanded", () => {
    const chain = [graphSession("n-0")];
    for (let index = 1; index < 6; index++) chain.push(graphSession(`n-${index}`, [`n-${index - 1}`], "op_session_loop", index === 3 ? failing : {}));
    chain.push(graphSession("fork-x", ["n-5"], "op_fork"), graphSession("fork-y", ["n-5"], "op_fork"));
    // A graph this small draws every session: nothing collapses unless asked.
    expect(toFlowGraph({ sessions: chain }).nodes.map((node) => node.id)).toEqual(chain.map((session) => session.id));
    expect(toFlowGraph({ sessions: chain }).chains.size).toBe(0);
    const collapsed = toFlowGraph({ sessions: chain, collapseChainsAbove: 0 });
    const id = chainIdOf("n-0");
    expect(collapsed.nodes.map((node) => node.id)).toEqual([id, "fork-x", "fork-y"]);
    expect(collapsed.nodes[0]?.data).toMatchObject({ kind: "chain", toolErrors: 1, failed: true, onFailurePath: true });
    expect(collapsed.edges.map((edge) => edge.id)).toEqual([`${id}->fork-x`, `${id}->fork-y`]);
    expect(collapsed.nodeOfSession.get("n-3")).toBe(id);
    expect(collapsed.chains.get(id)).toEqual(["n-0", "n-1", "n-2", "n-3", "n-4", "n-5"]);
    expect(toFlowGraph({ sessions: chain, collapseChainsAbove: 0, expandedChains: new Set([id]) }).nodes).toHaveLength(8);
    expect(toFlowGraph({ sessions: chain.slice(0, 3), collapseChainsAbove: 0 }).nodes).toHaveLength(3);
  });

  it("collapses chains only once the graph has more drawn sessions than COLLAPSE_CHAINS_ABOVE", () => {
    const line = (length: number) => [graphSession("n-0"), ...Array.from({ length: length - 1 }, (_, index) => graphSession(`n-${index + 1}`, [`n-${index}`]))];
    const atLimit = toFlowGraph({ sessions: line(COLLAPSE_CHAINS_ABOVE) });
    expect(atLimit.nodes).toHaveLength(COLLAPSE_CHAINS_ABOVE);
    expect(atLimit.nodes.every((node) => node.data.kind === "session")).toBe(true);
    const above = toFlowGraph({ sessions: line(COLLAPSE_CHAINS_ABOVE + 1) });
    expect(above.nodes.map((node) => node.id)).toEqual([chainIdOf("n-0")]);
    expect(above.chains.get(chainIdOf("n-0"))).toHaveLength(COLLAPSE_CHAINS_ABOVE + 1);
    // Folded prompt sessions are not drawn, so they do not count.
    const prompts = Array.from({ length: 10 }, (_, index) => graphSession(`p-${index}`, [], "leaf_system"));
    const withPrompts = [...line(COLLAPSE_CHAINS_ABOVE).map((session, index) => (index > 0 && index <= 10 ? { ...session, lineage: { ...session.lineage, parent_session_ids: [...session.lineage.parent_session_ids, `p-${index - 1}`] } } : session)), ...prompts];
    expect(toFlowGraph({ sessions: withPrompts }).nodes).toHaveLength(COLLAPSE_CHAINS_ABOVE);
  });

  it("folds closed fork/merge diamonds into the chains around them only in a large graph", () => {
    // root -> a -> b -> fork (x, y) -> merge -> c, the agents' prompt sessions folded away
    const thread = (prefix: string) => [
      graphSession(`${prefix}-a`, ["root-0"], "op_fork"),
      graphSession(`${prefix}-b`, [`${prefix}-a`, "agent-prompt"], "op_session_loop"),
      graphSession(`${prefix}-x`, [`${prefix}-b`], "op_fork"),
      graphSession(`${prefix}-y`, [`${prefix}-b`], "op_fork", failing),
      graphSession(`${prefix}-m`, [`${prefix}-x`, `${prefix}-y`], "op_merge"),
      graphSession(`${prefix}-c`, [`${prefix}-m`, "agent-prompt"], "op_session_loop"),
    ];
    const small = [graphSession("root-0"), graphSession("agent-prompt", [], "leaf_system"), ...thread("t0"), ...thread("t1")];
    expect(toFlowGraph({ sessions: small }).nodes.map((node) => node.id).slice(0, 7)).toEqual(["root-0", "t0-a", "t0-b", "t0-x", "t0-y", "t0-m", "t0-c"]);
    expect(toFlowGraph({ sessions: small, collapseChainsAbove: 0 }).nodes.map((node) => node.id).slice(0, 7)).toEqual(["root-0", "t0-a", "t0-b", "t0-x", "t0-y", "t0-m", "t0-c"]);
    const forced = toFlowGraph({ sessions: small, collapseChainsAbove: 0, absorbForksAbove: 0 });
    expect(forced.nodes.map((node) => node.id)).toEqual(["root-0", chainIdOf("t0-a"), chainIdOf("t1-a")]);
    expect(forced.nodes[1]?.data).toMatchObject({ kind: "chain", forks: 1, toolErrors: 1, failed: true });
    expect(forced.chains.get(chainIdOf("t0-a"))).toEqual(["t0-a", "t0-b", "t0-x", "t0-y", "t0-m", "t0-c"]);
    expect(forced.edges.map((edge) => edge.id)).toEqual([`root-0->${chainIdOf("t0-a")}`, `root-0->${chainIdOf("t1-a")}`]);

    const large = [graphSession("root-0"), graphSession("agent-prompt", [], "leaf_system"), ...Array.from({ length: 40 }, (_, index) => thread(`t${index}`)).flat()];
    const projection = toFlowGraph({ sessions: large });
    expect(projection.nodes).toHaveLength(41);
    expect(projection.nodeOfSession.get("t7-y")).toBe(chainIdOf("t7-a"));
    const expanded = toFlowGraph({ sessions: large, expandedChains: new Set([chainIdOf("t7-a")]) });
    expect(expanded.nodes).toHaveLength(46);
    expect(expanded.nodeOfSession.get("t7-x")).toBe("t7-x");
  });

  it("draws the running step and the failed step after their input sessions", () => {
    const projection = toFlowGraph({
      sessions: sessions.slice(0, 3),
      pending: [{ nodeId: "pros", inputs: ["fork-a"], status: "running" }],
      failure: { nodeId: "cons", code: "provider_error", message: "boom", inputs: ["fork-b"] },
    });
    expect(projection.nodes.slice(-2).map((node) => node.id)).toEqual(["pending:0", "failure:cons"]);
    expect(projection.edges.slice(-2).map((edge) => [edge.id, edge.kind, edge.onFailurePath])).toEqual([
      ["fork-a->pending:0", "pending", false],
      ["fork-b->failure:cons", "failure", true],
    ]);
    expect(projection.failurePath.has("fork-b")).toBe(true);
  });

  it("handles 5,000 sessions in a few passes", () => {
    const many = [graphSession("r-0")];
    for (let index = 1; index < 5000; index++) many.push(graphSession(`s-${index}`, [index % 10 === 0 ? "r-0" : `s-${index - 1}`.replace("s-0", "r-0")], "op_fork"));
    const projection = toFlowGraph({ sessions: many });
    expect(projection.nodeOfSession.size).toBe(5000);
    expect(projection.nodes.length).toBeLessThan(5000);
  });

  it("bundles the edges of a wide fan-out onto one trunk, failure paths drawn last; a two-way fork stays unbundled", () => {
    const fan = [graphSession("q"), ...Array.from({ length: 5 }, (_, index) => graphSession(`t${index}`, ["q"], "op_fork", index === 1 ? failing : {}))];
    const projection = toFlowGraph({ sessions: fan });
    expect(BUNDLE_FAN_OUT).toBeLessThanOrEqual(5);
    expect(projection.edges.every((edge) => edge.bundled)).toBe(true);
    // The failing thread's edge comes last, so the shared trunk shows the failure colour; the others keep their order.
    expect(projection.edges.map((edge) => edge.target)).toEqual(["t0", "t2", "t3", "t4", "t1"]);
    expect(projection.edges.at(-1)?.onFailurePath).toBe(true);
    expect(toFlowGraph({ sessions }).edges.some((edge) => edge.bundled)).toBe(false);
  });
});
