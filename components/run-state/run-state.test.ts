import { describe, expect, it } from "vitest";
import { applyRunEvents, namesUnknownSession } from "./live-graph";
import { graphOf, graphSession, runEvent } from "./testing-sessions";
import { applyTimelineEvents, EMPTY_TIMELINE } from "./timeline";

const usage = (total: number) => ({ prompt_tokens: total - 1, completion_tokens: 1, total_tokens: total });
const assistant = (total: number) => ({ kind: "assistant", payload: { content: "hi", tool_calls: null }, meta: { at: "2026-01-01T00:00:00Z", usage: usage(total) } });
const failedTool = { kind: "tool_result", payload: { tool_call_id: "c", name: "read", content: "{}" }, meta: { at: "2026-01-01T00:00:00Z", evidence: { args: {}, ok: false, error_kind: "os_error", duration_ms: 1, sandbox: null, resource_key: null } } };
const lineage = (parents: string[], kind: string) => ({ parent_session_ids: parents, lineage_operator: kind, lineage_kind: kind, lineage_extras: [] });

describe("applyRunEvents", () => {
  const root = graphSession("input-1", [], "leaf_user", { chunkCount: 1 });

  it("adds announced sessions with their edges and grows them chunk by chunk: own usage after the inherited chunks, tool errors", () => {
    const events = [
      runEvent(4, "session.created", { session_id: "agent-1", lineage: lineage(["input-1"], "op_session_loop"), chunk_count: 1, node_id: "agent" }),
      runEvent(5, "chunk.appended", { session_id: "agent-1", index: 1, chunk: assistant(30) }),
      runEvent(6, "chunk.appended", { session_id: "agent-1", index: 2, chunk: failedTool }),
      runEvent(7, "chunk.appended", { session_id: "agent-1", index: 3, chunk: assistant(12) }),
    ];
    const graph = applyRunEvents(graphOf([root], 3), events);
    expect(graph.eventSeq).toBe(7);
    expect(graph.sessions.map((session) => [session.id, session.lineage.parent_session_ids])).toEqual([["input-1", []], ["agent-1", ["input-1"]]]);
    expect(graph.sessions[1]).toMatchObject({ id: "agent-1", nodeId: "agent", chunkCount: 4, inheritedChunkCount: 1, toolErrors: { count: 1, firstIndex: 2 } });
    expect(graph.sessions[1]?.ownUsage).toEqual({ prompt_tokens: 29 + 11, completion_tokens: 2, total_tokens: 42 });
  });

  it("is idempotent: replayed events and chunks the graph already counts change nothing (same object)", () => {
    const graph = graphOf([root, graphSession("agent-1", ["input-1"], "op_session_loop", { chunkCount: 2, inheritedChunkCount: 1, ownUsage: usage(30) })], 5);
    const replay = [
      runEvent(5, "chunk.appended", { session_id: "agent-1", index: 1, chunk: assistant(30) }),
      runEvent(3, "session.created", { session_id: "agent-1", lineage: lineage(["input-1"], "op_session_loop"), chunk_count: 1 }),
    ];
    expect(applyRunEvents(graph, replay)).toBe(graph);
    // Read after seq 5 already had chunk 1: a later event for it is skipped, the next one counted once.
    const later = applyRunEvents(graph, [runEvent(6, "chunk.appended", { session_id: "agent-1", index: 1, chunk: assistant(30) }), runEvent(7, "chunk.appended", { session_id: "agent-1", index: 2, chunk: assistant(5) })]);
    expect(later.sessions[1]?.ownUsage?.total_tokens).toBe(35);
    expect(applyRunEvents(later, [runEvent(7, "chunk.appended", { session_id: "agent-1", index: 2, chunk: assistant(5) })])).toBe(later);
  });

  it("a root session inherits nothing; a fork inherits what it was announced with; unknown sessions are noticed", () => {
    const graph = applyRunEvents(graphOf([], 0), [
      runEvent(1, "session.created", { session_id: "input-1", lineage: lineage([], "leaf_user"), chunk_count: 1 }),
      runEvent(2, "session.created", { session_id: "fork-1", lineage: lineage(["input-1"], "op_fork"), chunk_count: 1 }),
    ]);
    expect(graph.sessions.map((session) => [session.id, session.inheritedChunkCount])).toEqual([
      ["input-1", 0],
      ["fork-1", 1],
    ]);
    expect(namesUnknownSession(graph, [runEvent(3, "chunk.appended", { session_id: "ghost", index: 0, chunk: assistant(1) })])).toBe(true);
    expect(namesUnknownSession(graph, [runEvent(3, "chunk.appended", { session_id: "fork-1", index: 1, chunk: assistant(1) })])).toBe(false);
  });

  it("counts a session announced earlier in the same batch as known (a live step commits both), not one announced after", () => {
    const graph = graphOf([root], 3);
    const created = runEvent(4, "session.created", { session_id: "agent-1", lineage: lineage(["input-1"], "op_session_loop"), chunk_count: 1, node_id: "agent" });
    const chunk = runEvent(5, "chunk.appended", { session_id: "agent-1", index: 1, chunk: assistant(3) });
    expect(namesUnknownSession(graph, [created, chunk])).toBe(false);
    expect(namesUnknownSession(graph, [chunk])).toBe(true);
    expect(namesUnknownSession(graph, [chunk, created])).toBe(true);
    // An announcement the graph cannot read (no lineage) does not make its session known.
    expect(namesUnknownSession(graph, [runEvent(4, "session.created", { session_id: "agent-1", chunk_count: 1 }), chunk])).toBe(true);
  });
});

describe("timeline", () => {
  it("folds steps, retries, what runs next and the failure with its inputs", () => {
    const state = applyTimelineEvents(EMPTY_TIMELINE, [
      runEvent(1, "run.claimed", { worker_id: "w" }),
      runEvent(2, "run.step.completed", { node_id: "input", step_seq: 1, started_at: "2026-01-01T00:00:01.000Z", ended_at: "2026-01-01T00:00:01.500Z", inputs: [], outputs: ["s1"], next: [{ node_id: "agent", inputs: ["s1"] }], waiting: false }),
      runEvent(3, "run.step.attempt.failed", { node_id: "agent", step_seq: 2, attempt: 1, message: "rate limited" }),
      runEvent(4, "run.step.completed", { node_id: "agent", step_seq: 2, started_at: "2026-01-01T00:00:02.000Z", ended_at: "2026-01-01T00:00:04.000Z", inputs: ["s1"], outputs: ["s2"], next: [{ node_id: "tool", inputs: ["s2"] }] }),
      runEvent(5, "run.execution.failed", { code: "tool_failed", message: "boom", node_id: "tool" }),
    ]);
    expect(state.steps.map((step) => [step.nodeId, step.endedAt - step.startedAt, step.failedAttempts])).toEqual([
      ["input", 500, 0],
      ["agent", 2000, 1],
    ]);
    expect(state.retrying).toEqual({});
    expect(state.next).toEqual([{ nodeId: "tool", inputs: ["s2"] }]);
    expect(state.failure).toMatchObject({ nodeId: "tool", code: "tool_failed", message: "boom", inputs: ["s2"] });
    expect(applyTimelineEvents(state, [runEvent(4, "run.step.completed", { node_id: "agent" })])).toBe(state);
  });
});

describe("applyTimelineEvents on an imported run", () => {
  it("notes the import and its file, with no steps (the run never executed here)", () => {
    const state = applyTimelineEvents(EMPTY_TIMELINE, [
      runEvent(1, "session.created", { session_id: "a", lineage: lineage([], "leaf_user"), chunk_count: 1 }),
      runEvent(2, "run.imported", { file: "trace.jsonl", run_id: null, workflow: null, revision: null, session_count: 1 }),
    ]);
    expect(state.imported).toEqual({ file: "trace.jsonl" });
    expect(state.steps).toEqual([]);
    expect(state.lastSeq).toBe(2);
    expect(EMPTY_TIMELINE.imported).toBeNull();
    expect(applyTimelineEvents(EMPTY_TIMELINE, [runEvent(1, "run.imported", {})]).imported).toEqual({ file: null });
  });
});
