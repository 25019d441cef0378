import { describe, expect, it } from "vitest";
import { recordingContext } from "../agent/test-helpers";
import { makeChunk, type ChunkOf, type MemoryHit } from "../session/chunk";
import { Session } from "../session/session";
import { LocalMemoryStore } from "./local-memory-store";
import { commitFrom, lastUserMessage, recallInto, rememberInto } from "./memory-operations";
import type { CommitResult, MemoryStore, RecallOptions } from "./memory-store";

async function teaStore(): Promise<LocalMemoryStore> {
  const store = new LocalMemoryStore({ name: "notes" });
  await store.remember("memory://user/drinks/tea", "The user prefers green tea.");
  await store.remember("memory://user/places/city", "The user lives in Porto.");
  return store;
}

/** An external store stand-in: anything implementing the MemoryStore port plugs in. */
class RecordingStore implements MemoryStore {
  readonly name = "external";
  readonly calls: string[] = [];
  async remember(uri: string): Promise<void> {
    this.calls.push(`remember ${uri}`);
  }
  async recall(query: string, k: number, options?: RecallOptions): Promise<MemoryHit[]> {
    this.calls.push(`recall ${query} ${k} ${String(options?.within)}`);
    return [{ uri: "memory://resources/wiki/tea", score: 0.9, snippet: "Oolong is partly oxidised." }];
  }
  async commit(session: Session): Promise<CommitResult> {
    this.calls.push(`commit ${session.chunks.length}`);
    return { count: 7, uris: [] };
  }
}

describe("memory operations", () => {
  it("work with any store that implements the MemoryStore port", async () => {
    const store = new RecordingStore();
    const context = recordingContext();
    const { session } = await recallInto(Session.create("user", "oolong?"), store, context, { k: 2, within: "resources" });
    expect(session.chunks.last()?.payload).toEqual({ op: "recall", store: "external", query: "oolong?", hits: [{ uri: "memory://resources/wiki/tea", score: 0.9, snippet: "Oolong is partly oxidised." }] });
    const committed = await commitFrom(session, store, context);
    expect(committed.chunks.last()?.payload).toEqual({ op: "commit", store: "external", count: 7 });
    await rememberInto(committed, store, "memory://agent/x", "y", context);
    expect(store.calls).toEqual(["recall oolong? 2 resources", "commit 2", "remember memory://agent/x"]);
  });

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
