import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isRathError } from "../errors";
import { makeChunk } from "../session/chunk";
import { Session } from "../session/session";
import { LocalMemoryStore } from "./local-memory-store";

async function seeded(): Promise<LocalMemoryStore> {
  const store = new LocalMemoryStore();
  await store.remember("memory://user/fruit/a", "apple banana apple");
  await store.remember("memory://agent/fruit/b", "banana cherry");
  await store.remember("memory://user/fruit/c", "durian");
  return store;
}

describe("LocalMemoryStore", () => {
  it("recalls best first with BM25 scores and drops non-matching documents", async () => {
    const store = await seeded();
    const hits = await store.recall("banana", 5);
    expect(hits.map((hit) => hit.uri)).toEqual(["memory://agent/fruit/b", "memory://user/fruit/a"]);
    expect(hits[0]?.score).toBeCloseTo(Math.log(1.6), 10);
    expect(hits[0]?.snippet).toBe("banana cherry");
    expect(await store.recall("banana", 1)).toHaveLength(1);
  });

  it("filters by scope or URI prefix (the scope changes N and avgdl)", async () => {
    const store = await seeded();
    const hits = await store.recall("banana", 5, { within: "user" });
    expect(hits.map((hit) => hit.uri)).toEqual(["memory://user/fruit/a"]);
    // Within user: N = 2, avgdl = 2, n(banana) = 1 -> idf = ln(1 + 1.5/1.5) = ln 2; dl = 3.
    expect(hits[0]?.score).toBeCloseTo(Math.log(2) * (2.5 / (1 + 1.5 * (0.25 + 0.75 * 1.5))), 10);
    expect((await store.recall("cherry", 5, { within: "memory://agent/fruit" })).map((hit) => hit.uri)).toEqual(["memory://agent/fruit/b"]);
  });

  it("cuts snippets to the first 200 characters", async () => {
    const store = new LocalMemoryStore();
    await store.remember("memory://resources/long", `needle ${"x".repeat(400)}`);
    const [hit] = await store.recall("needle", 1);
    expect(hit?.snippet).toHaveLength(200);
    expect(hit?.snippet.startsWith("needle x")).toBe(true);
  });

  it("refuses traversal URIs", async () => {
    const store = new LocalMemoryStore();
    await expect(store.remember("memory://user/../x", "t")).rejects.toSatisfy((error) => isRathError(error, "invalid_memory_uri"));
  });

  it("commits new user/assistant text only once", async () => {
    const store = new LocalMemoryStore();
    const session = Session.create("user", "I like green tea").append(
      makeChunk("assistant", { content: "Noted: green tea.", tool_calls: null }),
      makeChunk("tool_result", { tool_call_id: "c", name: "t", content: "{}" }),
    );
    const first = await store.commit(session);
    expect(first.count).toBe(2);
    expect(first.uris[0]).toBe(`memory://session/${session.id}/0-user`);
    const again = await store.commit(session.fork().append(makeChunk("user", { content: "and black coffee" })));
    expect(again.count).toBe(1);
    expect(store.size).toBe(3);
  });

  it("still knows a text held at two URIs after one of them is rewritten", async () => {
    const store = new LocalMemoryStore();
    await store.remember("memory://user/a", "shared text");
    await store.remember("memory://user/b", "shared text");
    await store.remember("memory://user/a", "something else");
    expect((await store.commit(Session.create("user", "shared text"))).count).toBe(0);
  });

  it("ranks by embeddings when a hook is given, and falls back to BM25 when it fails", async () => {
    const vectors: Record<string, number[]> = { query: [1, 0], "alpha doc": [0, 1], "beta doc": [1, 0.1] };
    const store = new LocalMemoryStore({ embeddings: { embed: async (texts) => texts.map((text) => vectors[text] ?? [0, 0]) } });
    await store.remember("memory://user/a", "alpha doc");
    await store.remember("memory://user/b", "beta doc");
    const hits = await store.recall("query", 2);
    expect(hits.map((hit) => hit.uri)).toEqual(["memory://user/b"]);
    expect(hits[0]?.score).toBeCloseTo(1 / Math.sqrt(1.01), 10);
    const broken = new LocalMemoryStore({ embeddings: { embed: async () => Promise.reject(new Error("offline")) } });
    await broken.remember("memory://user/a", "alpha doc");
    expect((await broken.recall("alpha", 1)).map((hit) => hit.uri)).toEqual(["memory://user/a"]);
  });

  it("persists to a JSON file and loads it back", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "rath-memory-")), "store.json");
    const store = new LocalMemoryStore({ path });
    await store.remember("memory://user/a", "persisted fact");
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ schema_version: 1, documents: [{ uri: "memory://user/a", text: "persisted fact" }] });
    const reloaded = new LocalMemoryStore({ path });
    expect(reloaded.read("memory://user/a")).toBe("persisted fact");
    writeFileSync(path, "{\"schema_version\": 9}");
    expect(() => new LocalMemoryStore({ path })).toThrow(/schema version 1/);
  });
});
