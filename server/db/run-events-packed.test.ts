import { beforeAll, expect, it } from "vitest";
import type { Database } from "./database";
import { commitStep } from "./run-commit";
import { eventsPage, PACKED_ROW_TYPE, runEventRows, type RunEventRecord } from "./run-events";
import { getRun } from "./run-store";
import { claimSeededRun, PLAN_HASH } from "./testing/fixtures";
import { describeEachDatabase } from "./testing/test-databases";

/** The events of one agent step as the engine commits them (runtime kinds, then the engine's own). */
function agentStepEvents(sessionId: string) {
  return [
    { type: "agent.started", payload: { agent: "a", session_id: sessionId } },
    { type: "session.created", payload: { session_id: sessionId, chunk_count: 1, lineage: { parent_session_ids: [] }, node_id: "a" } },
    { type: "model.request.started", payload: { producer: "a", model: "m", round: 1 } },
    { type: "model.response.completed", payload: { producer: "a", model: "m", usage: { total_tokens: 4 }, latency_ms: 0, finish_reason: "stop", ratio: 0.5 } },
    { type: "chunk.appended", payload: { session_id: sessionId, index: 1, chunk: { kind: "assistant", payload: { content: "ok \u2028 \"quoted\"" }, meta: {} } } },
    { type: "agent.ended", payload: { agent: "a", session_id: sessionId, rounds: 1, truncated: false } },
    { type: "run.step.completed", payload: { node_id: "a", step_seq: 1, inputs: [], outputs: [sessionId] } },
    { type: "tool.call.started", payload: { tool: "t", call_id: "c1", args: { q: 1 } } },
    { type: "custom.kind", payload: { kept: true } },
    { type: "tool.call.ended", payload: { tool: "t", call_id: "c1", ok: true, duration_ms: 2 } },
  ];
}

async function rawRows(database: Database, runId: string): Promise<Array<{ seq: number; type: string }>> {
  const rows = await database.client.runEvent.findMany({ where: { runId }, select: { seq: true, type: true }, orderBy: { seq: "asc" } });
  return rows.map((row) => ({ seq: row.seq, type: row.type }));
}

/** Every page of `limit` events after every start, read back to back, must equal the events from `from` on. */
async function expectEveryPaging(database: Database, runId: string, all: readonly RunEventRecord[], types?: readonly string[]): Promise<void> {
  const wanted = types === undefined ? all : all.filter((event) => types.includes(event.type));
  for (const limit of [1, 2, 3, 7, 1000]) {
    for (const start of [0, ...all.map((event) => event.seq)]) {
      const read: RunEventRecord[] = [];
      let after = start;
      for (;;) {
        const page = await eventsPage(database, runId, { afterSeq: after, limit, ...(types === undefined ? {} : { types }) });
        expect(page.length).toBeLessThanOrEqual(limit);
        if (page.length === 0) break;
        read.push(...page);
        after = page.at(-1)?.seq ?? after;
      }
      expect(read, `limit ${limit} after ${start}`).toEqual(wanted.filter((event) => event.seq > start));
    }
  }
}

describeEachDatabase("packed run events", (open) => {
  let database: Database;

  beforeAll(async () => {
    database = (await open()).database;
  });

  it("a step's runs of runtime events are one row each; the log reads back event by event, as committed", async () => {
    const { run, fencingToken } = await claimSeededRun(database);
    const events = agentStepEvents(`${run.id}-s`);
    const result = await commitStep(database, run.id, fencingToken, {
      events,
      checkpoint: { seq: 1, planHash: PLAN_HASH, state: { step: 1 }, nextNodes: [] },
    });
    const first = run.lastEventSeq + 1;
    // 6 runtime events -> 1 row; run.step.completed, the lone tool.call.started, custom.kind, the lone tool.call.ended
    // and run.checkpoint.created keep a row each: 11 events in 6 rows, the packed one keyed by its last event's seq.
    expect((await rawRows(database, run.id)).filter((row) => row.seq >= first)).toEqual([
      { seq: first + 5, type: PACKED_ROW_TYPE },
      { seq: first + 6, type: "run.step.completed" },
      { seq: first + 7, type: "tool.call.started" },
      { seq: first + 8, type: "custom.kind" },
      { seq: first + 9, type: "tool.call.ended" },
      { seq: first + 10, type: "run.checkpoint.created" },
    ]);
    expect((await getRun(database, run.id))?.lastEventSeq).toBe(first + 10);
    const read = await eventsPage(database, run.id, { afterSeq: run.lastEventSeq });
    expect(read.map(({ seq, type, payload }) => ({ seq, type, payload }))).toEqual(result.events.map(({ seq, type, payload }) => ({ seq, type, payload })));
    expect(read.map((event) => event.type)).toEqual([...events.map((event) => event.type), "run.checkpoint.created"]);
    expect(read.map((event) => event.payload)).toEqual([...events.map((event) => event.payload), { seq: 1 }]);
    expect(new Set(read.map((event) => event.at.getTime())).size).toBe(1);

    const all = await eventsPage(database, run.id);
    expect(all.map((event) => event.seq)).toEqual(Array.from({ length: first + 10 }, (_, index) => index + 1));
    await expectEveryPaging(database, run.id, all);
    await expectEveryPaging(database, run.id, all, ["chunk.appended"]);
    await expectEveryPaging(database, run.id, all, ["run.checkpoint.created", "session.created", "tool.call.ended"]);
    await expectEveryPaging(database, run.id, all, ["run.step.completed"]);
  });

  it("rows written one per event (as before packing) read the same as packed ones", async () => {
    const { run, fencingToken } = await claimSeededRun(database);
    const events = agentStepEvents(`${run.id}-s`);
    const packed = await commitStep(database, run.id, fencingToken, { events });
    // The same events appended as an older version stored them: one row each.
    const old = await claimSeededRun(database);
    const at = new Date("2026-12-01T10:00:00.000Z");
    const first = old.run.lastEventSeq + 1;
    await database.client.$transaction([
      database.client.run.update({ where: { id: old.run.id }, data: { eventSeq: first + events.length - 1 } }),
      database.client.runEvent.createMany({ data: events.map((event, offset) => ({ runId: old.run.id, seq: first + offset, type: event.type, payload: JSON.stringify(event.payload), at })) }),
    ]);
    const oldRead = await eventsPage(database, old.run.id, { afterSeq: old.run.lastEventSeq });
    const newRead = await eventsPage(database, run.id, { afterSeq: run.lastEventSeq });
    expect(oldRead.map(({ seq, type, payload }) => ({ seq: seq - first, type, payload }))).toEqual(
      newRead.map(({ seq, type, payload }) => ({ seq: seq - (run.lastEventSeq + 1), type, payload })),
    );
    expect(newRead.map((event) => event.seq)).toEqual(packed.events.map((event) => event.seq));
    await expectEveryPaging(database, old.run.id, await eventsPage(database, old.run.id), ["agent.ended", "run.claimed"]);
  });
});

it("runEventRows packs runs of two or more runtime kinds and keeps every other event (and a lone runtime one) in its own row", () => {
  const types = ["run.claimed", "agent.started", "custom", "session.created", "chunk.appended", "run.step.completed", "model.delta", "agent.ended"];
  const payloads = types.map((_, index) => `{"i":${index}}`);
  expect(runEventRows(types, payloads)).toEqual([
    { lastOffset: 0, type: "run.claimed", payload: '{"i":0}' },
    { lastOffset: 1, type: "agent.started", payload: '{"i":1}' },
    { lastOffset: 2, type: "custom", payload: '{"i":2}' },
    { lastOffset: 4, type: PACKED_ROW_TYPE, payload: '[["session.created",{"i":3}],["chunk.appended",{"i":4}]]' },
    { lastOffset: 5, type: "run.step.completed", payload: '{"i":5}' },
    { lastOffset: 6, type: "model.delta", payload: '{"i":6}' },
    { lastOffset: 7, type: "agent.ended", payload: '{"i":7}' },
  ]);
  expect(runEventRows([], [])).toEqual([]);
});
