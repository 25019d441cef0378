import { expect, it } from "vitest";
import { readSessionChunks } from "../db/session-chunks";
import { describeEachDatabase } from "../db/testing/test-databases";
import { listPendingInterrupts } from "../db/interrupt-store";
import { submitDecision } from "./run-interrupts";
import { runToCompletion } from "./run-to-completion";
import { EXAMPLE_SPECS } from "./spec/examples";
import { allEvents, canonicalRunGraph } from "./testing/canonical-graph";
import { queueRun } from "./testing/engine-fixtures";
import type { Database } from "../db/database";

async function expectConsistentGraph(database: Database, runId: string): Promise<void> {
  const sessions = await database.client.session.findMany({ where: { runId } });
  for (const session of sessions) {
    // Structural sharing: a session stores only the chunks after those it shares with its base.
    expect(await database.client.chunk.count({ where: { sessionId: session.id } })).toBe(session.chunkCount - session.baseChunkCount);
    expect((await readSessionChunks(database, session.id))?.length).toBe(session.chunkCount);
  }
  const ids = new Set(sessions.map((session) => session.id));
  const parents = await database.client.sessionParent.findMany({ where: { sessionId: { in: [...ids] } } });
  for (const edge of parents) expect(ids.has(edge.parentId)).toBe(true);
  const checkpoints = await database.client.checkpoint.findMany({ where: { runId }, orderBy: { seq: "asc" }, select: { seq: true } });
  expect(checkpoints.map((checkpoint) => checkpoint.seq)).toEqual(checkpoints.map((_, index) => index + 1));
  const events = await allEvents(database, runId);
  expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
  expect((await canonicalRunGraph(database, runId)).some((session) => (session as { missing?: boolean }).missing)).toBe(false);
}

describeEachDatabase("example workflows on the durable engine (demo provider)", (open) => {
  for (const slug of ["hello-agent", "fork-merge-research", "selector-loop", "memory-notes"]) {
    it(`${slug} succeeds with a consistent session graph`, async () => {
      const { database } = await open();
      const run = await queueRun(database, EXAMPLE_SPECS[slug], { input: "What is a session?" });
      const done = await runToCompletion(database, run.id);
      expect(done.error).toBeNull();
      expect(done.status).toBe("succeeded");
      expect((done.output as { outputs: unknown[] }).outputs.length).toBeGreaterThan(0);
      await expectConsistentGraph(database, run.id);
    }, 60_000);
  }

  it("fork-merge-research shares chunk rows: forks store none, the merge only its right side, loops only new turns", async () => {
    const { database } = await open();
    const run = await queueRun(database, EXAMPLE_SPECS["fork-merge-research"], { input: "What is a session?" });
    expect((await runToCompletion(database, run.id)).status).toBe("succeeded");
    const sessions = await database.client.session.findMany({ where: { runId: run.id } });
    const byId = new Map(sessions.map((session) => [session.id, session]));
    const parentsOf = (session: (typeof sessions)[number]) => JSON.parse(session.parents) as string[];
    const forks = sessions.filter((session) => session.lineageKind === "op_fork");
    expect(forks.length).toBeGreaterThan(1);
    for (const fork of forks) {
      expect(fork.baseSessionId).toBe(parentsOf(fork)[0]);
      expect(fork.baseChunkCount).toBe(fork.chunkCount);
    }
    const merge = sessions.find((session) => session.lineageKind === "op_merge");
    if (merge === undefined) throw new Error("no merge session");
    const [left, right] = parentsOf(merge).map((id) => byId.get(id));
    expect(merge.baseSessionId).toBe(left?.id);
    expect(merge.baseChunkCount).toBe(left?.chunkCount);
    expect(merge.chunkCount - merge.baseChunkCount).toBe(right?.chunkCount);
    for (const loop of sessions.filter((session) => session.lineageKind === "op_session_loop")) {
      // Its input's chunks; a fork input owns none, so the base is followed down to the session that has the rows.
      const input = byId.get(parentsOf(loop)[0] as string);
      expect([input?.id, input?.baseSessionId]).toContain(loop.baseSessionId);
      expect(loop.baseChunkCount).toBe(input?.chunkCount);
    }
  }, 60_000);

  it("approval waits, then completes after approve", async () => {
    const { database } = await open();
    const run = await queueRun(database, EXAMPLE_SPECS.approval);
    expect((await runToCompletion(database, run.id)).status).toBe("waiting");
    const [interrupt] = await listPendingInterrupts(database, { runId: run.id });
    await submitDecision(database, interrupt?.id as string, { kind: "approve" });
    expect((await runToCompletion(database, run.id)).status).toBe("succeeded");
    await expectConsistentGraph(database, run.id);
  }, 60_000);
});
