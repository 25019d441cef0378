import { describe, expect, it } from "vitest";
import { addLiveChunks, liveChunkAt, liveChunkOf, MAX_TAIL_CHUNKS, MAX_TAIL_SESSIONS, NO_LIVE_CHUNKS } from "./live-chunks";
import type { GraphSessionData } from "./live-graph";
import { runEvent } from "./testing-sessions";

const text = (content: string) => ({ kind: "assistant", payload: { content, tool_calls: null }, meta: { at: "2026-01-01T00:00:00Z" } });
const appended = (seq: number, sessionId: string, index: number, content = `c${index}`) => runEvent(seq, "chunk.appended", { session_id: sessionId, index, chunk: text(content) });

describe("addLiveChunks", () => {
  it("keeps each session's unbroken tail of streamed chunks, in index order", () => {
    const live = addLiveChunks(NO_LIVE_CHUNKS, [appended(1, "a", 3), runEvent(2, "session.created", { session_id: "b" }), appended(3, "a", 4), appended(4, "b", 0)]);
    const a = live.get("a");
    expect(a?.from).toBe(3);
    expect(a?.length).toBe(2);
    expect(liveChunkAt(a, 4)?.chunk).toEqual(text("c4"));
    expect(liveChunkAt(a, 2)).toBeUndefined();
    expect(liveChunkAt(a, 5)).toBeUndefined();
    expect(liveChunkAt(live.get("b"), 0)?.sessionId).toBe("b");
  });

  it("is idempotent (same map for replayed chunks) and an older state still reads as it was", () => {
    const first = addLiveChunks(NO_LIVE_CHUNKS, [appended(1, "a", 0), appended(2, "a", 1)]);
    expect(addLiveChunks(first, [appended(2, "a", 1, "again"), runEvent(3, "step.committed", {})])).toBe(first);
    const second = addLiveChunks(first, [appended(3, "a", 2)]);
    expect(second.get("a")?.length).toBe(3);
    expect(first.get("a")?.length).toBe(2);
    expect(liveChunkAt(first.get("a"), 2)).toBeUndefined();
    // Growing the older state again does not disturb the newer one.
    const branch = addLiveChunks(first, [appended(3, "a", 2, "other")]);
    expect(liveChunkAt(branch.get("a"), 2)?.chunk).toEqual(text("other"));
    expect(liveChunkAt(second.get("a"), 2)?.chunk).toEqual(text("c2"));
  });

  it("starts the tail again after a gap, and skips malformed events", () => {
    const live = addLiveChunks(NO_LIVE_CHUNKS, [appended(1, "a", 0), appended(2, "a", 5), runEvent(3, "chunk.appended", { session_id: "a", index: "6", chunk: text("x") }), runEvent(4, "chunk.appended", { session_id: "a", index: 6, chunk: null })]);
    expect(live.get("a")).toMatchObject({ from: 5, length: 1 });
  });

  it("is bounded: a long tail keeps its newest chunks, and only the sessions grown most recently keep a tail", () => {
    const count = MAX_TAIL_CHUNKS * 3 + 7;
    let live = NO_LIVE_CHUNKS;
    for (let index = 0; index < count; index += 1) live = addLiveChunks(live, [appended(index + 1, "long", index)]);
    const tail = live.get("long");
    expect(tail?.length).toBeLessThanOrEqual(MAX_TAIL_CHUNKS);
    expect(tail?.chunks.length).toBeLessThanOrEqual(MAX_TAIL_CHUNKS);
    // Unbroken up to the newest chunk; what moved out is read in pages (liveChunkAt says it does not hold it).
    expect((tail?.from ?? 0) + (tail?.length ?? 0)).toBe(count);
    expect(liveChunkAt(tail, count - 1)?.chunk).toEqual(text(`c${count - 1}`));
    expect(liveChunkAt(tail, tail?.from ?? 0)?.index).toBe(tail?.from);
    expect(liveChunkAt(tail, 0)).toBeUndefined();

    const sessions = Array.from({ length: MAX_TAIL_SESSIONS + 5 }, (_, position) => `s${position}`);
    live = addLiveChunks(live, sessions.map((id, position) => appended(count + position + 1, id, 0)));
    expect(live.size).toBe(MAX_TAIL_SESSIONS);
    expect(live.has("long")).toBe(false);
    expect(live.has("s0")).toBe(false);
    expect(live.has(sessions[sessions.length - 1] as string)).toBe(true);
    // A tail that grows again is the most recent: the next session to arrive drops another one.
    live = addLiveChunks(live, [appended(9000, "s5", 1), appended(9001, "new", 0)]);
    expect(live.has("s5")).toBe(true);
    expect(live.has("s6")).toBe(false);
  });
});

describe("liveChunkOf", () => {
  type Kind = GraphSessionData["lineage"]["lineage_kind"];
  const lineage = (parents: string[], kind: Kind): GraphSessionData["lineage"] => ({ parent_session_ids: parents, lineage_operator: kind, lineage_kind: kind, lineage_extras: [] });
  // A chain of agents: a1 extends the input (1 chunk), a2 extends a1 (2 chunks); each streamed only its own chunk.
  const sessions = new Map([
    ["in", { lineage: lineage([], "leaf_user"), inheritedChunkCount: 0 }],
    // An agent loop's parents: its input, then the agent's own session.
    ["a1", { lineage: lineage(["in", "agent-1"], "op_session_loop"), inheritedChunkCount: 1 }],
    ["a2", { lineage: lineage(["a1", "agent-2"], "op_session_loop"), inheritedChunkCount: 2 }],
    ["f", { lineage: lineage(["a2"], "op_fork"), inheritedChunkCount: 3 }],
    ["m", { lineage: lineage(["a1", "a2"], "op_merge"), inheritedChunkCount: 3 }],
  ]);
  const live = addLiveChunks(NO_LIVE_CHUNKS, [appended(1, "a1", 1, "first answer"), appended(2, "a2", 2, "second answer")]);

  it("finds an agent session's inherited chunk in its input's live tail, up the chain, as the session's own chunk", () => {
    expect(liveChunkOf(live, sessions, "a2", 2)?.chunk).toEqual(text("second answer"));
    const inherited = liveChunkOf(live, sessions, "a2", 1);
    expect(inherited).toEqual({ sessionId: "a2", index: 1, chunk: text("first answer") });
    // The same object each time (memoised rows do not render again).
    expect(liveChunkOf(live, sessions, "a2", 1)).toBe(inherited);
  });

  it("reads nothing it cannot be sure of: not streamed, past the inherited count, a fork's or a merge's parents", () => {
    expect(liveChunkOf(live, sessions, "a2", 0)).toBeUndefined();
    expect(liveChunkOf(live, sessions, "a2", 3)).toBeUndefined();
    expect(liveChunkOf(live, sessions, "f", 2)).toBeUndefined();
    expect(liveChunkOf(live, sessions, "m", 1)).toBeUndefined();
    expect(liveChunkOf(live, sessions, "unknown", 1)).toBeUndefined();
  });
});
