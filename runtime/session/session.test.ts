import { describe, expect, it } from "vitest";
import { isRathError } from "../errors";
import { isUuidV4 } from "../ids";
import { SandboxHandle } from "../sandbox/handle";
import { makeChunk } from "./chunk";
import { Session, SessionSnapshot } from "./session";
import type { Usage } from "./usage";

class TestHandle extends SandboxHandle {
  closedCount = 0;
  constructor() {
    super("local", "/tmp/test-workspace");
  }
  protected async onClose(): Promise<void> {
    this.closedCount += 1;
  }
}

const usage = (prompt: number, completion: number) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
});

describe("Session.create", () => {
  it("makes a leaf_user session with one user chunk and the reference extras", () => {
    const session = Session.create("user", "hello");
    expect(session.chunks.length).toBe(1);
    expect(session.chunks.at(0)).toMatchObject({ kind: "user", payload: { content: "hello" } });
    expect(session.lineage).toEqual({
      parent_session_ids: [],
      lineage_operator: "Session.create",
      lineage_kind: "leaf_user",
      lineage_extras: [["source", "Session.create"]],
    });
    expect(session.usage).toBeNull();
    expect(session.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("makes leaf_system and empty sessions", () => {
    const system = Session.create("system", "be brief");
    expect(system.chunks.toArray().map((chunk) => [chunk.kind, chunk.payload])).toEqual([["system", { content: "be brief" }]]);
    expect(system.lineage).toEqual({
      parent_session_ids: [],
      lineage_operator: "Session.create",
      lineage_kind: "leaf_system",
      lineage_extras: [["source", "Session.create"]],
    });
    const empty = Session.create("empty");
    expect(empty.chunks.length).toBe(0);
    expect(empty.lineage).toEqual({
      parent_session_ids: [],
      lineage_operator: "implicit",
      lineage_kind: "unknown",
      lineage_extras: [["source", "Session.create"]],
    });
  });

  it("refuses any other kind with an error that says unknown kind", () => {
    try {
      Session.create("assistant" as never, "x");
      expect.unreachable();
    } catch (error) {
      expect(isRathError(error, "unknown_kind")).toBe(true);
      expect(String((error as Error).message)).toContain("unknown kind");
    }
  });
});

describe("fork and detach", () => {
  it("fork shares chunks and placement, parents [self], op_fork, usage not copied", () => {
    const base = Session.create("user", "q").append(makeChunk("assistant", { content: "a", tool_calls: null }, { usage: usage(3, 4) }));
    expect(base.usage).toEqual(usage(3, 4));
    const fork = base.fork();
    expect(fork.id).not.toBe(base.id);
    expect(fork.chunks).toBe(base.chunks);
    expect(fork.placement).toEqual(base.placement);
    expect(fork.lineage.parent_session_ids).toEqual([base.id]);
    expect(fork.lineage.lineage_kind).toBe("op_fork");
    expect(fork.lineage.lineage_operator).toBe("Session.fork");
    expect(fork.usage).toBeNull();
  });

  it("detach has no parents and kind op_detach", () => {
    const base = Session.create("user", "q");
    const detached = base.detach();
    expect(detached.lineage.parent_session_ids).toEqual([]);
    expect(detached.lineage.lineage_kind).toBe("op_detach");
    expect(detached.lineage.lineage_operator).toBe("Session.detach");
    expect(detached.chunks.toArray()).toEqual(base.chunks.toArray());
  });

  it("forks of one session share one frozen lineage value (a fork costs its own object and id only)", () => {
    const base = Session.create("user", "q");
    const [first, second] = [base.fork(), base.fork()];
    expect(first?.lineage).toBe(second?.lineage);
    expect(Object.isFrozen(first?.lineage)).toBe(true);
    expect(Object.isFrozen(first?.lineage.parent_session_ids)).toBe(true);
    const other = base.fork().fork();
    expect(other.lineage.parent_session_ids).not.toEqual([base.id]);
    expect(base.detach().lineage).toBe(other.detach().lineage);
    expect(isUuidV4(first?.id ?? "")).toBe(true);
    expect(new Set(Array.from({ length: 1000 }, () => base.fork().id)).size).toBe(1000);
  });

  it("forks share the sandbox handle and count references", async () => {
    const handle = new TestHandle();
    const bound = Session.create("user", "q").withHandle(handle);
    const a = bound.fork();
    const b = bound.detach();
    expect(a.handle).toBe(handle);
    expect(b.handle).toBe(handle);
    expect(handle.refcount).toBe(3);
    await a.release();
    await b.release();
    expect(handle.closed).toBe(false);
    await bound.release();
    expect(handle.closed).toBe(true);
    expect(handle.closedCount).toBe(1);
  });

  it("appending to a fork leaves the parent unchanged", () => {
    const base = Session.create("user", "q");
    const fork = base.fork().append(makeChunk("user", { content: "more" }));
    expect(base.chunks.length).toBe(1);
    expect(fork.chunks.length).toBe(2);
  });
});

describe("merge", () => {
  it("concatenates chunks, sums usage null-safely, keeps self's placement, parents [self, other]", () => {
    const a = Session.create("user", "a").to("local", { workingDir: "/tmp/a" }).append(
      makeChunk("assistant", { content: "x", tool_calls: null }, { usage: usage(1, 2) }),
    );
    const b = Session.create("user", "b").to("local", { workingDir: "/tmp/b" });
    const merged = a.merge(b);
    expect(merged.chunks.toArray().map((chunk) => chunk.kind)).toEqual(["user", "assistant", "user"]);
    expect(merged.usage).toEqual(usage(1, 2));
    expect(merged.placement.spec?.working_dir).toBe("/tmp/a");
    expect(merged.lineage).toEqual({
      parent_session_ids: [a.id, b.id],
      lineage_operator: "Session.merge",
      lineage_kind: "op_merge",
      lineage_extras: [],
    });
    const both = a.merge(a.append(makeChunk("assistant", { content: "y", tool_calls: null }, { usage: usage(10, 20) })));
    expect(both.usage).toEqual(usage(12, 24));
    expect(Session.create("user", "x").merge(Session.create("user", "y")).usage).toBeNull();
  });

  it("is refused only when both are unbound and their backends differ", () => {
    const local = Session.create("user", "a");
    const isolated = Session.create("user", "b").to("bwrap");
    expect(() => local.merge(isolated)).toThrowError(/different backends/);
    const bound = isolated.withHandle(new TestHandle());
    expect(local.merge(bound).placement.backend).toBe("local");
    expect(bound.merge(local).placement.backend).toBe("bwrap");
  });

  it("shares self's sandbox handle (refcount + 1) and takes no reference to other's", async () => {
    const mine = new TestHandle();
    const theirs = new TestHandle();
    const a = Session.create("user", "a").withHandle(mine);
    const b = Session.create("user", "b").withHandle(theirs);
    const merged = a.merge(b);
    expect(merged.handle).toBe(mine);
    expect([mine.refcount, theirs.refcount]).toEqual([2, 1]);
    await a.release();
    expect(mine.closed).toBe(false);
    await merged.release();
    expect(mine.closed).toBe(true);
    await b.release();
    expect(theirs.closedCount).toBe(1);
  });

  it("keeps self's provider", () => {
    const a = Session.create("user", "a").withProvider("openai");
    const b = Session.create("user", "b").withProvider("anthropic");
    expect(a.merge(b).provider).toBe("openai");
  });

  it("does not copy chunk arrays (structural sharing)", () => {
    let long = Session.create("empty");
    for (let i = 0; i < 5000; i++) long = long.append(makeChunk("user", { content: `m${i}` }));
    const merged = long.merge(long.fork());
    expect(merged.chunks.length).toBe(10_000);
    expect(merged.chunks.depth).toBeLessThanOrEqual(long.chunks.depth + 1);
    expect(merged.chunks.at(5000)).toBe(long.chunks.at(0));
  });
});

describe("structural sharing", () => {
  it("keeps memory near one copy for many forks of one long session, each with its own tail", () => {
    let long = Session.create("empty");
    const chunks = Array.from({ length: 20_000 }, (_, index) => makeChunk("user", { content: `m${index}` }, { at: "t" }));
    long = long.append(...chunks);
    const before = process.memoryUsage().heapUsed;
    const forks: Session[] = [];
    for (let index = 0; index < 2000; index++) forks.push(long.fork().append(makeChunk("user", { content: `tail ${index}` }, { at: "t" })));
    const grown = process.memoryUsage().heapUsed - before;
    // Copying the 20k-entry chunk array per fork would keep at least 2000 * 160 KB = 320 MB alive.
    expect(grown).toBeLessThan(64 * 1024 * 1024);
    expect(forks.every((fork) => fork.chunks.at(19_999) === long.chunks.at(19_999) && fork.chunks.length === 20_001)).toBe(true);
    expect(forks[1999]?.chunks.last()?.payload).toEqual({ content: "tail 1999" });
  });
});

describe("immutability and snapshots", () => {
  it("cannot be mutated", () => {
    const session = Session.create("user", "q");
    expect(() => {
      (session as unknown as { id: string }).id = "x";
    }).toThrow();
    expect(() => (session.lineage.parent_session_ids).push("x")).toThrow();
    const chunk = session.chunks.at(0)!;
    expect(() => {
      (chunk.payload as { content: string }).content = "changed";
    }).toThrow();
  });

  it("round-trips through a snapshot validated by its schema", () => {
    const session = Session.create("user", "q")
      .to("local", { workingDir: "/tmp/w" })
      .append(makeChunk("route", { selector: "s", candidates: [{ index: 0, name: "a", description: "A" }], chosen: 0, reply: "0" }))
      .withExtras([["loop.truncated", true]]);
    const snapshot = SessionSnapshot.parse(JSON.parse(JSON.stringify(session.toSnapshot())));
    const restored = Session.fromSnapshot(snapshot);
    expect(restored.toSnapshot()).toEqual(session.toSnapshot());
  });

  it("copies a caller's usage as it is: own keys in their order, unknown keys and an own __proto__ key kept, frozen", () => {
    const given = { completion_tokens: 2, prompt_tokens: 1, total_tokens: 3, cached_tokens: 4 };
    const session = Session.derive({ chunks: [], parents: [], kind: "op_create", operator: "create", usage: given });
    expect(session.usage).not.toBe(given);
    expect(Object.isFrozen(session.usage)).toBe(true);
    expect(Object.entries(session.usage as object)).toEqual([["completion_tokens", 2], ["prompt_tokens", 1], ["total_tokens", 3], ["cached_tokens", 4]]);
    const parsed = JSON.parse('{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3,"__proto__":{"polluted":true}}') as Usage;
    const withProto = Session.derive({ chunks: [], parents: [], kind: "op_create", operator: "create", usage: parsed }).usage as object;
    expect(Object.keys(withProto)).toEqual(["prompt_tokens", "completion_tokens", "total_tokens", "__proto__"]);
    expect(Object.getPrototypeOf(withProto)).toBe(Object.prototype);
    expect((withProto as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("forkAt takes the first chunks as a fork", () => {
    let session = Session.create("user", "q");
    for (let i = 0; i < 10; i++) session = session.append(makeChunk("user", { content: String(i) }));
    const early = session.forkAt(3);
    expect(early.chunks.length).toBe(3);
    expect(early.lineage.parent_session_ids).toEqual([session.id]);
    expect(early.lineage.lineage_extras).toEqual([["fork.at_chunk", 3]]);
  });
});
