import { beforeAll, expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import type { Database } from "./database";
import { checkpointForResume, commitStep, getCheckpoint, latestCheckpoint } from "./run-commit";
import { eventsPage } from "./run-events";
import { getRun } from "./run-store";
import { childSessions, chunkPage, getSession, sessionGraph } from "./session-store";
import { childSession, claimSeededRun, PLAN_HASH, rejectionOf, rootSession, userChunk } from "./testing/fixtures";
import { describeEachDatabase } from "./testing/test-databases";

function checkpoint(seq: number, planHash = PLAN_HASH) {
  return { seq, planHash, state: { step: seq, values: { a: [1, 2] } }, nextNodes: [`node-${seq + 1}`], pendingInterrupts: [], effectWatermark: seq };
}

describeEachDatabase("step commits", (open) => {
  let database: Database;

  beforeAll(async () => {
    database = (await open()).database;
  });

  it("writes sessions, edges, chunks, events and the checkpoint together", async () => {
    const { run, fencingToken } = await claimSeededRun(database);
    const root = `${run.id}-root`;
    const fork = `${run.id}-fork`;
    const result = await commitStep(database, run.id, fencingToken, {
      sessions: [rootSession(root), { ...childSession(fork, [root]), chunkCount: 2 }],
      chunks: [userChunk(root, 0), userChunk(fork, 0, "forked"), userChunk(fork, 1, "more")],
      events: [{ type: "session.created", payload: { session_id: root } }],
      checkpoint: checkpoint(1),
      tokensUsed: 17,
    });
    expect(result.checkpoint).toMatchObject({ seq: 1, planHash: PLAN_HASH, state: { step: 1, values: { a: [1, 2] } }, nextNodes: ["node-2"], effectWatermark: 1 });
    expect(result.events.map((event) => [event.seq, event.type])).toEqual([
      [4, "session.created"],
      [5, "run.checkpoint.created"],
    ]);
    expect(result.events[1]?.payload).toEqual({ seq: 1 });
    expect((await getRun(database, run.id))?.tokensUsed).toBe(17);

    const graph = await sessionGraph(database, run.id);
    expect(graph.sessions.map((session) => session.id)).toEqual([root, fork]);
    expect(graph.edges).toEqual([{ parentId: root, childId: fork, position: 0 }]);
    const stored = await getSession(database, fork);
    expect(stored).toMatchObject({
      runId: run.id,
      nodeId: "b",
      status: "ok",
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
      lineage: { parent_session_ids: [root], lineage_kind: "op_fork", lineage_extras: [["note", 1]] },
    });
    expect((await childSessions(database, root)).map((session) => session.id)).toEqual([fork]);
    const page = await chunkPage(database, fork, { fromIndex: 1, limit: 5 });
    expect(page).toEqual([{ sessionId: fork, index: 1, chunk: userChunk(fork, 1, "more").chunk }]);
    expect(await latestCheckpoint(database, run.id)).toEqual(result.checkpoint);
  });

  it("stores an edge as a session_parents row only when the parent is not of the child's run", async () => {
    const first = await claimSeededRun(database);
    const root = `${first.run.id}-root`;
    const sibling = `${first.run.id}-sibling`;
    const later = `${first.run.id}-later`;
    await commitStep(database, first.run.id, first.fencingToken, { sessions: [rootSession(root), rootSession(sibling)] });
    // A later step of the same run: both parents were stored by the step before (one remembered, one as well).
    await commitStep(database, first.run.id, first.fencingToken, { sessions: [childSession(later, [root, sibling], "op_merge")] });
    const second = await claimSeededRun(database);
    const forked = `${second.run.id}-forked`;
    const orphan = `${second.run.id}-orphan`;
    const unknownParent = `${second.run.id}-never-stored`;
    await commitStep(database, second.run.id, second.fencingToken, {
      sessions: [rootSession(`${second.run.id}-own`), childSession(forked, [`${second.run.id}-own`, root], "op_merge"), childSession(orphan, [unknownParent])],
    });

    const rows = await database.client.sessionParent.findMany({ where: { sessionId: { in: [later, forked, orphan] } }, orderBy: [{ sessionId: "asc" }, { position: "asc" }] });
    expect(rows.map((row) => [row.sessionId, row.position, row.parentId])).toEqual(
      [
        [forked, 1, root],
        [orphan, 0, unknownParent],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    // The graph's edges and a session's children still name every parent, within and across runs.
    expect((await sessionGraph(database, first.run.id)).edges).toEqual([
      { parentId: root, childId: later, position: 0 },
      { parentId: sibling, childId: later, position: 1 },
    ]);
    expect((await sessionGraph(database, second.run.id)).edges.filter((edge) => edge.childId === forked)).toEqual([
      { parentId: `${second.run.id}-own`, childId: forked, position: 0 },
      { parentId: root, childId: forked, position: 1 },
    ]);
    expect((await childSessions(database, root)).map((session) => session.id)).toEqual([later, forked]);
    expect((await childSessions(database, sibling)).map((session) => session.id)).toEqual([later]);
    expect((await childSessions(database, `${second.run.id}-own`)).map((session) => session.id)).toEqual([forked]);
  });

  it("reads the run of a parent that this handle does not remember", async () => {
    const opened = await open();
    const first = await claimSeededRun(opened.database);
    const root = `${first.run.id}-root`;
    await commitStep(opened.database, first.run.id, first.fencingToken, { sessions: [rootSession(root)] });
    // Another handle on the same database (as another process) has never seen `root`: it reads its run.
    const other = await opened.openAnother();
    const second = await claimSeededRun(other);
    const forked = `${second.run.id}-forked`;
    await commitStep(other, second.run.id, second.fencingToken, { sessions: [childSession(forked, [root])] });
    const inSameRun = `${first.run.id}-same-run`;
    await commitStep(other, first.run.id, first.fencingToken, { sessions: [childSession(inSameRun, [root])] });
    expect(await opened.database.client.sessionParent.findMany({ select: { sessionId: true, parentId: true } })).toEqual([{ sessionId: forked, parentId: root }]);
    expect((await childSessions(opened.database, root)).map((session) => session.id).sort()).toEqual([inSameRun, forked].sort());
  });

  it("pages chunks by index", async () => {
    const { run, fencingToken } = await claimSeededRun(database);
    const session = `${run.id}-long`;
    await commitStep(database, run.id, fencingToken, {
      sessions: [{ ...rootSession(session), chunkCount: 25 }],
      chunks: Array.from({ length: 25 }, (_, index) => userChunk(session, index)),
    });
    const first = await chunkPage(database, session, { limit: 10 });
    const third = await chunkPage(database, session, { fromIndex: 20, limit: 10 });
    expect(first.map((chunk) => chunk.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(third.map((chunk) => chunk.index)).toEqual([20, 21, 22, 23, 24]);
    expect(third[4]?.chunk).toMatchObject({ kind: "user", payload: { content: "message 24" } });
  });

  it("requires contiguous checkpoint sequence numbers", async () => {
    const { run, fencingToken } = await claimSeededRun(database);
    const skipped = await rejectionOf(commitStep(database, run.id, fencingToken, { checkpoint: checkpoint(2) }));
    expect(isRathError(skipped, "conflict")).toBe(true);
    expect(skipped.message).toContain("expected 1, found 2");
    await commitStep(database, run.id, fencingToken, { checkpoint: checkpoint(1) });
    await commitStep(database, run.id, fencingToken, { checkpoint: checkpoint(2) });
    const repeated = await rejectionOf(commitStep(database, run.id, fencingToken, { checkpoint: checkpoint(2) }));
    expect(repeated.message).toContain("expected 3, found 2");
    expect((await latestCheckpoint(database, run.id))?.seq).toBe(2);
    expect((await getCheckpoint(database, run.id, 1))?.state).toEqual({ step: 1, values: { a: [1, 2] } });
  });

  it("refuses a checkpoint (and a resume) for another plan hash", async () => {
    const { run, fencingToken } = await claimSeededRun(database);
    const before = await getRun(database, run.id);
    const mismatch = await rejectionOf(
      commitStep(database, run.id, fencingToken, { events: [{ type: "x", payload: {} }], checkpoint: checkpoint(1, "other-plan") }),
    );
    expect(isRathError(mismatch, "conflict")).toBe(true);
    expect(mismatch.message).toContain(`expected ${PLAN_HASH}, found other-plan`);
    expect(await getRun(database, run.id)).toEqual(before);
    await commitStep(database, run.id, fencingToken, { checkpoint: checkpoint(1) });
    expect((await checkpointForResume(database, run.id, PLAN_HASH))?.seq).toBe(1);
    const resume = await rejectionOf(checkpointForResume(database, run.id, "changed-plan"));
    expect(resume.message).toContain("expected plan hash changed-plan");
  });

  it("leaves the database unchanged when a commit fails midway", async () => {
    const { run, fencingToken } = await claimSeededRun(database);
    const session = `${run.id}-s`;
    await commitStep(database, run.id, fencingToken, { sessions: [rootSession(session)], chunks: [userChunk(session, 0)], checkpoint: checkpoint(1) });
    const runBefore = await getRun(database, run.id);
    const eventsBefore = await eventsPage(database, run.id);
    const fresh = `${run.id}-fresh`;
    // The checkpoint, the new session and the events are valid; the duplicate chunk index fails last.
    const failure = await rejectionOf(
      commitStep(database, run.id, fencingToken, {
        sessions: [rootSession(fresh)],
        chunks: [userChunk(fresh, 0), userChunk(session, 0, "duplicate")],
        events: [{ type: "step.done", payload: {} }],
        checkpoint: checkpoint(2),
        tokensUsed: 99,
      }),
    );
    expect(isRathError(failure, "conflict")).toBe(true);
    expect(await getRun(database, run.id)).toEqual(runBefore);
    expect(await eventsPage(database, run.id)).toEqual(eventsBefore);
    expect((await latestCheckpoint(database, run.id))?.seq).toBe(1);
    expect(await getSession(database, fresh)).toBeNull();
    expect(await chunkPage(database, session)).toHaveLength(1);
  });

  it("refuses chunks of another run's session", async () => {
    const first = await claimSeededRun(database);
    const session = `${first.run.id}-mine`;
    await commitStep(database, first.run.id, first.fencingToken, { sessions: [rootSession(session)] });
    const second = await claimSeededRun(database);
    const refusal = await rejectionOf(commitStep(database, second.run.id, second.fencingToken, { chunks: [userChunk(session, 0)] }));
    expect(isRathError(refusal, "invalid_argument")).toBe(true);
    expect(refusal.message).toContain(session);
  });

  it("pages events after a sequence number", async () => {
    const { run, fencingToken } = await claimSeededRun(database);
    await commitStep(database, run.id, fencingToken, {
      events: Array.from({ length: 6 }, (_, index) => ({ type: "model.delta", payload: { text: String(index) } })),
    });
    const page = await eventsPage(database, run.id, { afterSeq: 4, limit: 3 });
    expect(page.map((event) => [event.seq, event.payload])).toEqual([
      [5, { text: "1" }],
      [6, { text: "2" }],
      [7, { text: "3" }],
    ]);
    await expect(eventsPage(database, run.id, { limit: 0 })).rejects.toThrow(/limit must be an integer from 1 to 1000; found 0/);
  });
});
