import { describe, expect, it } from "vitest";
import { recordingContext } from "../agent/test-helpers";
import { makeChunk, type ChunkOf } from "../session/chunk";
import { Session } from "../session/session";
import { LocalMemoryStore } from "./local-memory-store";
import { MemoryStep } from "./memory-step";

describe("MemoryStep", () => {
  it("remembers the last assistant text on a fork and recalls it later", async () => {
    const store = new LocalMemoryStore();
    const input = Session.create("user", "what is the capital?").append(makeChunk("assistant", { content: "Lisbon is the capital of Portugal.", tool_calls: null }));
    const context = recordingContext();
    const remembered = await new MemoryStep({ store, op: "remember", uri: "memory://agent/facts/capital" }).forward(input, context);
    expect(remembered.lineage.parent_session_ids).toEqual([input.id]);
    expect((remembered.chunks.last() as ChunkOf<"memory">).payload).toEqual({ op: "remember", store: "local", uri: "memory://agent/facts/capital", count: 1 });
    expect(input.chunks.length).toBe(2);
    expect(context.events).toContainEqual({ type: "memory.remembered", store: "local", uri: "memory://agent/facts/capital" });

    const recalled = await new MemoryStep({ store, op: "recall", k: 2 }).forward(Session.create("user", "Capital of Portugal?"), context);
    const chunk = recalled.chunks.last() as ChunkOf<"memory">;
    expect(chunk.payload.op).toBe("recall");
    expect(chunk.payload.hits?.[0]?.uri).toBe("memory://agent/facts/capital");
  });

  it("commits on a fork and returns the input when recall finds nothing", async () => {
    const store = new LocalMemoryStore();
    const input = Session.create("user", "hello there");
    const committed = await new MemoryStep({ store, op: "commit" }).forward(input);
    expect((committed.chunks.last() as ChunkOf<"memory">).payload).toEqual({ op: "commit", store: "local", count: 1 });
    expect(committed.lineage).toMatchObject({ parent_session_ids: [input.id], lineage_kind: "op_fork" });
    expect(input.chunks.length).toBe(1);
    expect(await new MemoryStep({ store, op: "recall" }).forward(Session.create("user", "zebra"))).toMatchObject({ chunks: { length: 1 } });
    expect(() => new MemoryStep({ store, op: "remember", uri: "memory://user/../x" })).toThrow(/forbidden path segment/);
  });
});
