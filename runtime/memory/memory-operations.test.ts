import { describe, expect, it } from "vitest";
import { recordingContext } from "../agent/test-helpers";
import { makeChunk, type ChunkOf } from "../session/chunk";
import { Session } from "../session/session";
import { LocalMemoryStore } from "./local-memory-store";
import { commitFrom, lastUserMessage, recallInto, rememberInto } from "./memory-operations";

async function teaStore(): Promise<LocalMemoryStore> {
  const store = new LocalMemoryStore({ name: "notes" });
  await store.remember("memory://user/drinks/tea", "The user prefers green tea.");
  await store.remember("memory://user/places/city", "The user lives in Porto.");
  return store;
}

describe("memory operations", () => {
  it("recalls with the last user message as the query, onto a fork, as one memory chunk", async () => {
    const store = await teaStore();
    const input = Session.create("user", "Where do I live?").append(
      makeChunk("assistant", { content: "In Porto.", tool_calls: null }),
      makeChunk("user", { content: "And which tea do I like?" }),
      makeChunk("user", { content: "   " }),
      makeChunk("assistant", { content: "Let me check.", tool_calls: null }),
    );
    expect(lastUserMessage(input)).toBe("And which tea do I like?");
    const { session, hits } = await recallInto(input, store, recordingContext(), { k: 1 });
    expect(hits.map((hit) => hit.uri)).toEqual(["memory://user/drinks/tea"]);
    expect(session.lineage).toMatchObject({ parent_session_ids: [input.id], lineage_kind: "op_fork" });
    expect(session.chunks.length).toBe(input.chunks.length + 1);
    expect(input.chunks.length).toBe(5);
    const recall = session.chunks.last() as ChunkOf<"memory">;
    expect(recall.payload).toEqual({ op: "recall", store: "notes", query: "And which tea do I like?", hits });
  });

  it("returns the input itself when there is no user message or no hit", async () => {
    const store = await teaStore();
    const noUser = Session.create("system", "be brief");
    expect((await recallInto(noUser, store, recordingContext())).session).toBe(noUser);
    const noHit = Session.create("user", "zebra");
    expect((await recallInto(noHit, store, recordingContext())).session).toBe(noHit);
  });

  it("records commit and remember as memory chunks", async () => {
    const store = new LocalMemoryStore({ name: "notes" });
    const context = recordingContext();
    const session = Session.create("user", "I like oolong.").append(makeChunk("assistant", { content: "Noted.", tool_calls: null }));
    const committed = await commitFrom(session, store, context);
    expect(committed.chunks.last()?.payload).toEqual({ op: "commit", store: "notes", count: 2 });
    const remembered = await rememberInto(committed, store, "memory://agent/facts/tea", "oolong", context);
    expect(remembered.chunks.last()?.payload).toEqual({ op: "remember", store: "notes", uri: "memory://agent/facts/tea", count: 1 });
    expect(store.size).toBe(3);
    expect(context.events.map((event) => event.type)).toEqual(["memory.committed", "memory.remembered"]);
  });
});
