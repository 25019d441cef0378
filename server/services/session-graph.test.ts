/**
 * `sessions.graph`: sessions parents first (stably, in creation order otherwise), and one meaning per usage
 * field — own usage (a fork or merge spent nothing), cumulative over distinct ancestors (a merge counts a shared
 * ancestor once), and a run total equal to the tokens the models reported.
 */
import { expect, it } from "vitest";
import { cumulativeUsages } from "../../runtime/session/usage-rollup";
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
    // Cumulative usage (the page sums it from own usage) counts what the merge's branches spent, each once.
    const cumulative = cumulativeUsages(graph.sessions.map((session) => ({ id: session.id, parentIds: session.lineage.parent_session_ids, ownUsage: session.ownUsage })));
    expect(cumulative.get(merge.id)?.total_tokens).toBe(ownTotal(left.id) + ownTotal(right.id));
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
    expect(cumulative.get(summary?.id ?? "")?.total_tokens).toBe(finished.tokensUsed);
    const sum = graph.sessions.reduce((total, session) => total + (session.ownUsage?.total_tokens ?? 0), 0);
    expect(sum).toBe(finished.tokensUsed);
    // Own usage by model (for costs) sums to the same total, each session's to its own usage.
    const byModel = await api.sessions.usageByModel({ runId: run.id });
    const modelTotal = Object.values(byModel.sessions).flat().reduce((total, entry) => total + entry.total_tokens, 0);
    expect(modelTotal).toBe(finished.tokensUsed);
    expect(byModel.sessions[summary?.id ?? ""]?.map((entry) => [entry.model, entry.total_tokens])).toEqual([["scripted-1", summary?.ownUsage?.total_tokens]]);
    expect(byModel.sessions[merge.id]).toBeUndefined();
    // The same answer every time (no arbitrary tie-breaks).
    expect((await api.sessions.graph({ runId: run.id })).sessions.map((session) => session.id)).toEqual(graph.sessions.map((session) => session.id));
  });

  it("segments a merge's chunks (shared prefix once, each branch, the repeated prefix) and finds a branch's failed tool", async () => {
    const { database } = await open();
    const api = callerFor(database);
    // The critic reads "." with read_workspace_file (the demo provider's argument for a path): a directory, so it fails.
    const spec = exampleSpec("fork-merge-research") as { nodes: unknown[]; edges: unknown[] };
    spec.nodes.push({ id: "reader", type: "tool", label: "Reader", config: { kind: "builtin", name: "read_workspace_file" } });
    spec.edges.push({ id: "e-reader-cons", source: "reader", sourcePort: "out", target: "cons", targetPort: "tools" });
    const { run } = await api.runs.start({ spec, input: "segments" });
    await runToCompletion(database, run.id);
    const graph = await api.sessions.graph({ runId: run.id });
    const cons = graph.sessions.find((session) => session.nodeId === "cons" && session.lineage.lineage_kind === "op_session_loop");
    const pros = graph.sessions.find((session) => session.nodeId === "pros" && session.lineage.lineage_kind === "op_session_loop");
    expect(cons?.toolErrors).toEqual({ count: 1, firstIndex: 2 });
    expect(pros?.toolErrors).toBeNull();
    // The merge repeats the critic's chunks but reports no errors of its own.
    const merge = graph.sessions.find((session) => session.lineage.lineage_kind === "op_merge");
    if (merge === undefined || pros === undefined || cons === undefined) throw new Error("sessions missing");
    expect(merge.toolErrors).toBeNull();
    const { segments } = await api.sessions.segments({ sessionId: merge.id });
    const left = pros.chunkCount;
    expect(segments).toEqual([
      { kind: "shared", from: 0, to: 1, sourceSessionId: pros.id, sameAs: null },
      { kind: "inherited", from: 1, to: left, sourceSessionId: pros.id, sameAs: null },
      { kind: "join", from: left, to: left, sourceSessionId: null, sameAs: null },
      { kind: "repeated", from: left, to: left + 1, sourceSessionId: cons.id, sameAs: { from: 0, to: 1 } },
      { kind: "inherited", from: left + 1, to: left + cons.chunkCount, sourceSessionId: cons.id, sameAs: null },
    ]);
    const summary = graph.sessions[graph.sessions.length - 1];
    if (summary === undefined) throw new Error("no summary");
    expect((await api.sessions.segments({ sessionId: summary.id })).segments).toEqual([
      { kind: "inherited", from: 0, to: merge.chunkCount, sourceSessionId: merge.id, sameAs: null },
      { kind: "own", from: merge.chunkCount, to: summary.chunkCount, sourceSessionId: null, sameAs: null },
    ]);
    const input = graph.sessions[0];
    expect(input?.lineage.lineage_kind).toBe("leaf_user");
    expect((await api.sessions.segments({ sessionId: input?.id ?? "" })).segments).toEqual([{ kind: "own", from: 0, to: 1, sourceSessionId: null, sameAs: null }]);
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
