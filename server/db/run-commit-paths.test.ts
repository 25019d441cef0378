/**
 * The step commit's two write paths (SQLite: one transaction of prepared statements; PostgreSQL: one statement of
 * data-modifying CTEs) make the same promises: the checkpoint, sessions, chunks and events of a step are written
 * together or not at all, a stale fencing token writes nothing (whatever else the commit holds), the effect ledger
 * is untouched by a refused commit, and bases remembered by one handle never hide what another handle stored.
 */
import { beforeAll, expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import type { Database } from "./database";
import { listEffects, markDispatched, prepareEffect, settleEffect } from "./effect-ledger";
import { LeaseLostError } from "./lease-lost";
import { databaseKey, onRunEvents } from "./run-event-signal";
import { subscribeRunEvents } from "./run-event-listener";
import { commitStep, latestCheckpoint } from "./run-commit";
import { appendRunEvents, eventsPage } from "./run-events";
import { rawStatements } from "./raw-sql";
import { claimRun, expireLeases, type Claim } from "./run-lease";
import { getRun } from "./run-store";
import { chunkPage, getSession, sessionGraph } from "./session-store";
import { childSession, PLAN_HASH, rejectionOf, rootSession, seedRun, userChunk } from "./testing/fixtures";
import { describeEachDatabase } from "./testing/test-databases";

function checkpoint(seq: number, effectWatermark = 0) {
  return { seq, planHash: PLAN_HASH, state: { step: seq }, nextNodes: [`n${seq + 1}`], pendingInterrupts: [], effectWatermark };
}

/** Everything a refused commit must leave as it was. */
async function footprint(database: Database, runId: string, sessionIds: readonly string[]) {
  return {
    run: await getRun(database, runId),
    events: await eventsPage(database, runId),
    checkpoint: await latestCheckpoint(database, runId),
    effects: await listEffects(database, runId),
    sessions: await Promise.all(sessionIds.map((id) => getSession(database, id))),
    chunks: await Promise.all(sessionIds.map((id) => chunkPage(database, id))),
  };
}

describeEachDatabase("step commit paths", (open) => {
  let database: Database;
  let other: Database;

  beforeAll(async () => {
    const opened = await open();
    database = opened.database;
    other = await opened.openAnother();
  });

  async function claimed(): Promise<Claim> {
    const run = await seedRun(database);
    const claim = await claimRun(database, run.id, "worker-a", 60_000);
    if (claim === null) throw new Error("expected to claim the new run");
    return claim;
  }

  it("writes a step's checkpoint, sessions, parents, chunks and events in one commit, with the ledger's watermark", async () => {
    const { run: claimedRun, fencingToken } = await claimed();
    const run = claimedRun;
    const effect = (await prepareEffect(database, { runId: run.id, idempotencyKey: `${run.id}:a:1:call`, tool: "write", args: { x: 1 }, idempotent: false })).effect;
    await markDispatched(database, effect.id);
    await settleEffect(database, effect.id, { status: "succeeded", result: { ok: true } });
    const root = `${run.id}-root`;
    const loop = `${run.id}-loop`;
    const first = await commitStep(database, run.id, fencingToken, {
      sessions: [rootSession(root)],
      chunks: [userChunk(root, 0)],
      events: [{ type: "session.created", payload: { session_id: root } }],
      checkpoint: checkpoint(1),
    });
    // The next step's session shares the root's chunk (its base) and adds one of its own.
    const second = await commitStep(database, run.id, fencingToken, {
      sessions: [{ ...childSession(loop, [root]), chunkCount: 2, base: { sessionId: root, chunkCount: 1 } }],
      chunks: [userChunk(loop, 1, "answer")],
      events: [
        { type: "agent.started", payload: {} },
        { type: "session.created", payload: { session_id: loop } },
      ],
      checkpoint: checkpoint(2, 1),
      tokensUsed: 5,
    });
    expect(first.events.map((event) => event.seq)).toEqual([run.lastEventSeq + 1, run.lastEventSeq + 2]);
    expect(second.events.map((event) => [event.seq, event.type])).toEqual([
      [run.lastEventSeq + 3, "agent.started"],
      [run.lastEventSeq + 4, "session.created"],
      [run.lastEventSeq + 5, "run.checkpoint.created"],
    ]);
    expect(second.checkpoint).toMatchObject({ seq: 2, effectWatermark: 1, state: { step: 2 }, nextNodes: ["n3"] });
    expect(await latestCheckpoint(database, run.id)).toEqual(second.checkpoint);
    expect(await getSession(database, loop)).toMatchObject({ chunkCount: 2, base: { sessionId: root, chunkCount: 1 }, createdSeq: run.lastEventSeq + 4 });
    expect((await chunkPage(database, loop)).map((chunk) => chunk.chunk.payload)).toEqual([{ content: "message 0" }, { content: "answer" }]);
    expect((await sessionGraph(database, run.id)).edges).toEqual([{ parentId: root, childId: loop, position: 0 }]);
    expect(await getRun(database, run.id)).toMatchObject({ tokensUsed: 5, lastEventSeq: run.lastEventSeq + 5 });
    expect((await listEffects(database, run.id)).map((entry) => entry.status)).toEqual(["succeeded"]);
  });

  it("a stale fencing token writes nothing, leaves the ledger alone and is refused before any other problem of the commit", async () => {
    const stale = await claimed();
    const root = `${stale.run.id}-root`;
    await commitStep(database, stale.run.id, stale.fencingToken, { sessions: [rootSession(root)], chunks: [userChunk(root, 0)], checkpoint: checkpoint(1) });
    const effect = (await prepareEffect(database, { runId: stale.run.id, idempotencyKey: `${stale.run.id}:a:2:call`, tool: "write", args: {}, idempotent: true })).effect;
    await markDispatched(database, effect.id);
    // The lease expires and another worker claims the run: the first worker's token is stale.
    await expireLeases(database, new Date(Date.now() + 120_000));
    const current = await claimRun(other, stale.run.id, "worker-b", 60_000);
    expect(current?.run.id).toBe(stale.run.id);
    const fresh = `${stale.run.id}-fresh`;
    const before = await footprint(database, stale.run.id, [root, fresh]);
    const attempts = [
      // A valid step...
      { sessions: [{ ...childSession(fresh, [root]), chunkCount: 2, base: { sessionId: root, chunkCount: 1 } }], chunks: [userChunk(fresh, 1)], events: [{ type: "x", payload: {} }], checkpoint: checkpoint(2, 1), tokensUsed: 9 },
      // ...one naming a base that is not stored, one appending to a stored index, one with only events.
      { sessions: [{ ...childSession(fresh, ["missing"]), chunkCount: 2, base: { sessionId: `${stale.run.id}-missing`, chunkCount: 1 } }], chunks: [userChunk(fresh, 1)] },
      { chunks: [userChunk(root, 0, "again")], checkpoint: checkpoint(2) },
      { events: [{ type: "y", payload: {} }] },
    ];
    for (const attempt of attempts) {
      const refusal = await rejectionOf(commitStep(database, stale.run.id, stale.fencingToken, attempt));
      expect(refusal).toBeInstanceOf(LeaseLostError);
      expect(refusal).toMatchObject({ reason: "stale_token", givenToken: stale.fencingToken, currentToken: current?.fencingToken });
    }
    expect(await footprint(database, stale.run.id, [root, fresh])).toEqual(before);
    expect(before.effects.map((entry) => entry.status)).toEqual(["dispatched"]);
    // The current holder commits the same step.
    await commitStep(other, stale.run.id, current?.fencingToken as number, attempts[0] as Parameters<typeof commitStep>[3]);
    expect((await latestCheckpoint(database, stale.run.id))?.seq).toBe(2);
  });

  it("a constraint failure inside the commit leaves the run, checkpoint, events and sessions as they were", async () => {
    const { run, fencingToken } = await claimed();
    const taken = `${run.id}-taken`;
    await commitStep(database, run.id, fencingToken, { sessions: [rootSession(taken)], chunks: [userChunk(taken, 0)], checkpoint: checkpoint(1) });
    const fresh = `${run.id}-fresh`;
    const before = await footprint(database, run.id, [taken, fresh]);
    // The fresh session and the checkpoint are valid; the second session's id is already stored.
    const failure = await rejectionOf(
      commitStep(database, run.id, fencingToken, {
        sessions: [rootSession(fresh), rootSession(taken)],
        chunks: [userChunk(fresh, 0)],
        events: [{ type: "step.done", payload: {} }],
        checkpoint: checkpoint(2),
        tokensUsed: 3,
      }),
    );
    expect(isRathError(failure, "conflict")).toBe(true);
    expect(await footprint(database, run.id, [taken, fresh])).toEqual(before);
    await commitStep(database, run.id, fencingToken, { sessions: [rootSession(fresh)], chunks: [userChunk(fresh, 0)], checkpoint: checkpoint(2) });
    expect((await latestCheckpoint(database, run.id))?.seq).toBe(2);
  });

  it("a base remembered by one handle is read again when another handle stored more of it since", async () => {
    const { run, fencingToken } = await claimed();
    const grown = `${run.id}-grown`;
    // This handle stores the session with one chunk (and remembers it so)...
    await commitStep(database, run.id, fencingToken, { sessions: [rootSession(grown)], chunks: [userChunk(grown, 0)], checkpoint: checkpoint(1) });
    // ...another handle appends a second chunk...
    await commitStep(other, run.id, fencingToken, { chunks: [userChunk(grown, 1)], checkpoint: checkpoint(2) });
    // ...and a session sharing both chunks is accepted here, with the stored session as its base.
    const fork = `${run.id}-fork`;
    await commitStep(database, run.id, fencingToken, { sessions: [{ ...childSession(fork, [grown]), chunkCount: 2, base: { sessionId: grown, chunkCount: 2 } }], checkpoint: checkpoint(3) });
    expect(await getSession(database, fork)).toMatchObject({ chunkCount: 2, base: { sessionId: grown, chunkCount: 2 } });
    expect((await chunkPage(database, fork)).map((chunk) => chunk.index)).toEqual([0, 1]);
    // A base longer than what is stored is still refused.
    const tooLong = await rejectionOf(
      commitStep(database, run.id, fencingToken, { sessions: [{ ...childSession(`${run.id}-long`, [grown]), chunkCount: 3, base: { sessionId: grown, chunkCount: 3 } }] }),
    );
    expect(isRathError(tooLong, "invalid_argument")).toBe(true);
    expect(tooLong.message).toContain(`which has 2`);
  });

  it("a commit made while another transaction holds the run waits for it, then follows its events", async () => {
    const { run, fencingToken } = await claimed();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => {
      entered = resolve;
    });
    // On SQLite this transaction holds the one connection while it awaits; on PostgreSQL it holds the run's row.
    const holder = database.transaction(async (transaction) => {
      await appendRunEvents(rawStatements(database, transaction), run.id, [{ type: "test.held" }]);
      entered();
      await gate;
      return "held";
    });
    await holding;
    const committing = commitStep(database, run.id, fencingToken, { events: [{ type: "test.after", payload: {} }], checkpoint: checkpoint(1) });
    release();
    expect(await holder).toBe("held");
    const result = await committing;
    const events = await eventsPage(database, run.id, { afterSeq: run.lastEventSeq });
    expect(events.map((event) => [event.seq, event.type])).toEqual([
      [run.lastEventSeq + 1, "test.held"],
      [run.lastEventSeq + 2, "test.after"],
      [run.lastEventSeq + 3, "run.checkpoint.created"],
    ]);
    expect(result.events.map((event) => event.seq)).toEqual([run.lastEventSeq + 2, run.lastEventSeq + 3]);
    expect((await latestCheckpoint(database, run.id))?.seq).toBe(1);
  });

  it("wakes live readers on another handle once the commit is stored", async () => {
    const { run, fencingToken } = await claimed();
    const heard: number[] = [];
    const subscription = subscribeRunEvents(other.location, run.id, () => undefined);
    const off = onRunEvents(databaseKey(other.location), run.id, (lastSeq) => heard.push(lastSeq));
    try {
      await expect.poll(() => subscription.live()).toBe(true);
      const result = await commitStep(database, run.id, fencingToken, { events: [{ type: "a", payload: {} }], checkpoint: checkpoint(1) });
      const last = result.events.at(-1)?.seq as number;
      await expect.poll(() => heard).toEqual([last]);
      expect((await eventsPage(other, run.id)).at(-1)?.seq).toBe(last);
    } finally {
      off();
      subscription.unsubscribe();
    }
  });
});
