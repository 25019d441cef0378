/**
 * `sessions.graph`: sessions parents first (stably, in creation order otherwise), and one meaning per usage
 * field — own usage (a fork or merge spent nothing), cumulative over distinct ancestors (a merge counts a shared
 * ancestor once), and a run total equal to the tokens the models reported.
 */
import { expect, it } from "vitest";
import { describeEachDatabase } from "../db/testing/test-databases";
import { commitStep } from "../db/run-commit";
import { claimNext } from "../db/run-lease";
import { childSession, rootSession, seedRun, userChunk } from "../db/testing/fixtures";
import { runToCompletion } from "../engine/run-to-completion";
import { callerFor, exampleSpec } from "../api/testing/api-harness";

describeEachDatabase("session graph", (open) => {
  it("fork/merge example: parents first, own and cumulative usage, run total = tokens used", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const { run } = await api.runs.start({ spec: exampleSpec("fork-merge-research"), input: "usage" });
    const finished = await runToCompletion(database, run.id);
    const graph = await api.sessions.graph({ runId: run.id });
    const position = new Map(graph.sessions.map((session, index) => [session.id, index]));
    for (const session of graph.sessions) {
      for (const parent of session.lineage.parent_session_ids) expect(position.get(parent)).toBeLessThan(position.get(session.id) as number);
    }
    expect(graph.eventSeq).toBe(finished.lastEventSeq);
    const byId = new Map(graph.sessions.map((session) => [session.id, session]));
    const merge = graph.sessions.find((session) => session.lineage.lineage_kind === "op_merge");
    if (merge === undefined) throw new Error("no merge session");
    const [left, right] = merge.lineage.parent_session_ids.map((id) => byId.get(id));
    if (left === undefined || right === undefined) throw new Error("merge parents missing");
    // A merge took every chunk from its parents and spent nothing itself; the runtime's own value says 24 + 25.
    expect(merge.ownUsage).toBeNull();
    expect(merge.inheritedChunkCount).toBe(merge.chunkCount);
    expect(merge.chunkCount).toBe(left.chunkCount + right.chunkCount);
    const ownTotal = (id: string) => byId.get(id)?.ownUsage?.total_tokens ?? 0;
    expect(left.ownUsage?.total_tokens).toBeGreaterThan(0);
    expect(right.ownUsage?.total_tokens).toBeGreaterThan(0);
    expect(merge.cumulativeUsage?.total_tokens).toBe(ownTotal(left.id) + ownTotal(right.id));
    // Forks of the input took its chunk; the agent loops took their input's chunks and added their own turns.
    for (const fork of graph.sessions.filter((session) => session.lineage.lineage_kind === "op_fork")) {
      expect(fork.ownUsage).toBeNull();
      expect(fork.inheritedChunkCount).toBe(fork.chunkCount);
    }
    for (const loop of graph.sessions.filter((session) => session.lineage.lineage_kind === "op_session_loop")) {
      const input = byId.get(loop.lineage.parent_session_ids[0] as string);
      expect(loop.inheritedChunkCount).toBe(input?.chunkCount);
      expect(loop.chunkCount).toBeGreaterThan(loop.inheritedChunkCount);
    }
    const summary = graph.sessions[graph.sessions.length - 1];
    expect(summary?.nodeId).toBe("summary");
    expect(graph.totalUsage?.total_tokens).toBe(finished.tokensUsed);
    expect(summary?.cumulativeUsage?.total_tokens).toBe(finished.tokensUsed);
    const sum = graph.sessions.reduce((total, session) => total + (session.ownUsage?.total_tokens ?? 0), 0);
    expect(sum).toBe(finished.tokensUsed);
    // The same answer every time (no arbitrary tie-breaks).
    expect((await api.sessions.graph({ runId: run.id })).sessions.map((session) => session.id)).toEqual(graph.sessions.map((session) => session.id));
  });

  it("puts a merge after its parents even when one step commits it first, and keeps commit order otherwise", async () => {
    const { database } = await open();
    await seedRun(database);
    const claim = await claimNext(database, "worker", 60_000);
    if (claim === null) throw new Error("no claim");
    const runId = claim.run.id;
    const id = (name: string) => `${runId}-${name}`;
    await commitStep(database, runId, claim.fencingToken, {
      sessions: [rootSession(id("z-root")), childSession(id("b-left"), [id("z-root")]), childSession(id("a-right"), [id("z-root")])],
      chunks: [userChunk(id("z-root"), 0)],
      events: [id("z-root"), id("b-left"), id("a-right")].map((session_id) => ({ type: "session.created", payload: { session_id } })),
    });
    // The merge is announced before its right parent within one commit.
    await commitStep(database, runId, claim.fencingToken, {
      sessions: [childSession(id("m-merge"), [id("b-left"), id("y-late")], "op_merge"), childSession(id("y-late"), [id("z-root")])],
      events: [id("m-merge"), id("y-late")].map((session_id) => ({ type: "session.created", payload: { session_id } })),
    });
    const graph = await callerFor(database).sessions.graph({ runId });
    expect(graph.sessions.map((session) => session.id)).toEqual([id("z-root"), id("b-left"), id("a-right"), id("y-late"), id("m-merge")]);
  });
});
