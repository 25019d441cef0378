import { describe, expect, it } from "vitest";
import { addLiveChunks, liveChunkAt, NO_LIVE_CHUNKS } from "./live-chunks";
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
});
