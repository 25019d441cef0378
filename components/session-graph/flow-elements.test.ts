import { describe, expect, it } from "vitest";
import { applyRunEvents } from "../run-state/live-graph";
import { graphOf, graphSession, runEvent } from "../run-state/testing-sessions";
import type { LineageFlowEdge } from "./graph-edge";
import type { GraphFlowNode } from "./graph-nodes";
import { flowEdges, flowNodes } from "./flow-elements";
import { chainIdOf, toFlowGraph } from "./to-flow-graph";

const NONE: ReadonlySet<string> = new Set();

function positionsOf(ids: readonly string[]): Record<string, { x: number; y: number }> {
  return Object.fromEntries(ids.map((id, index) => [id, { x: index * 300, y: 0 }]));
}

describe("flowNodes / flowEdges", () => {
  const first = graphOf([graphSession("in-1"), graphSession("a-1", ["in-1"]), graphSession("b-1", ["a-1"])], 3);

  it("keeps the node and edge objects of unchanged sessions when a live step grows one session and adds one", () => {
    const previousNodes = new Map<string, GraphFlowNode>();
    const previousEdges = new Map<string, LineageFlowEdge>();
    const before = toFlowGraph({ sessions: first.sessions, pending: [{ nodeId: "c", inputs: ["b-1"], status: "running" }] });
    const positions = positionsOf(["in-1", "a-1", "b-1", "pending:0", "c-1"]);
    const nodes = flowNodes({ projection: before, positions, labels: {}, selectedNodeId: null, highlightedNodes: NONE }, previousNodes);
    const edges = flowEdges(before, NONE, previousEdges);

    // The step: b-1 gets a chunk, c-1 is created; the next step (d) runs after it.
    const grown = applyRunEvents(first, [
      runEvent(4, "chunk.appended", { session_id: "b-1", index: 1, chunk: { kind: "text", meta: {} } }),
      runEvent(5, "session.created", { session_id: "c-1", node_id: "c", chunk_count: 0, lineage: { parent_session_ids: ["b-1"], lineage_kind: "op_session_loop" } }),
    ]);
    expect(grown.sessions[0]).toBe(first.sessions[0]);
    const after = toFlowGraph({ sessions: grown.sessions, pending: [{ nodeId: "d", inputs: ["c-1"], status: "running" }] });
    const nextNodes = flowNodes({ projection: after, positions, labels: {}, selectedNodeId: null, highlightedNodes: NONE }, previousNodes);
    const nextEdges = flowEdges(after, NONE, previousEdges);

    const byId = (list: readonly GraphFlowNode[]) => new Map(list.map((node) => [node.id, node]));
    // Unchanged sessions: the same node object, so xyflow and the memoised node components skip them.
    expect(byId(nextNodes).get("in-1")).toBe(byId(nodes).get("in-1"));
    expect(byId(nextNodes).get("a-1")).toBe(byId(nodes).get("a-1"));
    // The grown session is a new object with the new count.
    expect(byId(nextNodes).get("b-1")).not.toBe(byId(nodes).get("b-1"));
    expect((byId(nextNodes).get("b-1")?.data as { session: { chunkCount: number } }).session.chunkCount).toBe(2);
    // The running step keeps its node id from step to step (it is not mounted again), with the new step's data.
    expect(byId(nextNodes).get("pending:0")?.data).toMatchObject({ kind: "pending", nodeId: "d" });
    expect(byId(nextNodes).get("c-1")).toBeDefined();
    // Edges between unchanged ends keep their object; the moved edge into the running step is new.
    expect(nextEdges.find((edge) => edge.id === "in-1->a-1")).toBe(edges.find((edge) => edge.id === "in-1->a-1"));
    expect(nextEdges.find((edge) => edge.id === "c-1->pending:0")?.source).toBe("c-1");
    // Only this call's nodes are remembered.
    expect([...previousNodes.keys()].sort()).toEqual(["a-1", "b-1", "c-1", "in-1", "pending:0"]);
  });

  it("makes a new node when its position, label, selection or highlight changes", () => {
    const previous = new Map<string, GraphFlowNode>();
    const projection = toFlowGraph({ sessions: first.sessions });
    const positions = positionsOf(["in-1", "a-1", "b-1"]);
    const base = flowNodes({ projection, positions, labels: {}, selectedNodeId: null, highlightedNodes: NONE }, previous);
    const selected = flowNodes({ projection, positions, labels: {}, selectedNodeId: "a-1", highlightedNodes: NONE }, previous);
    expect(selected[0]).toBe(base[0]);
    expect(selected[1]).not.toBe(base[1]);
    expect(selected[1]?.data.selected).toBe(true);
    const moved = flowNodes({ projection, positions: { ...positions, "in-1": { x: 5, y: 5 } }, labels: { a: "Agent" }, selectedNodeId: "a-1", highlightedNodes: new Set(["b-1"]) }, previous);
    expect(moved[0]).not.toBe(selected[0]);
    expect(moved[0]?.position).toEqual({ x: 5, y: 5 });
    expect(moved[1]?.data.label).toBe("Agent");
    expect(moved[2]?.data.highlighted).toBe(true);
  });

  it("gives a chain a new node only when its members change", () => {
    const chain = [graphSession("r-1"), ...Array.from({ length: 45 }, (_, index) => graphSession(`s${index}-1`, [index === 0 ? "r-1" : `s${index - 1}-1`]))];
    const previous = new Map<string, GraphFlowNode>();
    const once = flowNodes({ projection: toFlowGraph({ sessions: chain }), positions: {}, labels: {}, selectedNodeId: null, highlightedNodes: NONE }, previous);
    const again = flowNodes({ projection: toFlowGraph({ sessions: chain }), positions: {}, labels: {}, selectedNodeId: null, highlightedNodes: NONE }, previous);
    expect(once).toHaveLength(1);
    expect(once[0]?.id).toBe(chainIdOf("r-1"));
    expect(again[0]).toBe(once[0]);
    const longer = flowNodes({ projection: toFlowGraph({ sessions: [...chain, graphSession("s45-1", ["s44-1"])] }), positions: {}, labels: {}, selectedNodeId: null, highlightedNodes: NONE }, previous);
    expect(longer[0]?.id).toBe(chainIdOf("r-1"));
    expect(longer[0]).not.toBe(once[0]);
  });
});
