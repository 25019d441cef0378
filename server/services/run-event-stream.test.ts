/**
 * `followRunEvents` is pushed, not polled: with the fallback read pushed out to ten minutes, a run executed on
 * another database handle still streams every event, in order, once, and the stream ends when the run is
 * terminal. The fallback read still finds events written where nobody announces them.
 */
import { expect, it } from "vitest";
import { describeEachDatabase } from "../db/testing/test-databases";
import { runToCompletion } from "../engine/run-to-completion";
import { callerFor, exampleSpec } from "../api/testing/api-harness";
import { followRunEvents } from "./run-event-stream";
import type { RunEventView } from "./views";

const TEN_MINUTES = 600_000;

describeEachDatabase("followRunEvents", (open) => {
  it("streams a run executed elsewhere from pushes alone, each event once, and ends when it is terminal", async () => {
    const { database, openAnother } = await open();
    const worker = await openAnother();
    const { run } = await callerFor(database).runs.start({ spec: exampleSpec("fork-merge-research"), input: "pushed" });
    const seen: RunEventView[] = [];
    let execution: ReturnType<typeof runToCompletion> | undefined;
    for await (const event of followRunEvents(database, run.id, { fallbackMs: TEN_MINUTES, pollMs: TEN_MINUTES })) {
      seen.push(event);
      // The run starts only once the stream is open and waiting, so every later event has to be pushed.
      execution ??= new Promise((resolve) => setTimeout(resolve, 50)).then(() => runToCompletion(worker, run.id));
    }
    const finished = await execution;
    expect(finished?.status).toBe("succeeded");
    expect(seen.map((event) => event.seq)).toEqual(Array.from({ length: finished?.lastEventSeq ?? 0 }, (_, index) => index + 1));
    const types = seen.map((event) => event.type);
    expect(types).toContain("session.created");
    expect(types).toContain("chunk.appended");
    expect(types[types.length - 1]).toBe("run.execution.completed");
    const created = seen.filter((event) => event.type === "session.created");
    expect(created.every((event) => typeof event.payload.node_id === "string")).toBe(true);
  });

  it("resumes after a seq without repeating, and the fallback read finds events nobody announced", async () => {
    const { database } = await open();
    const { run } = await callerFor(database).runs.start({ spec: exampleSpec("hello-agent"), input: "fallback" });
    expect(run.lastEventSeq).toBeGreaterThan(0);
    const stream = followRunEvents(database, run.id, { afterSeq: run.lastEventSeq - 1, fallbackMs: 50 });
    const first = await stream.next();
    expect(first.value).toMatchObject({ seq: run.lastEventSeq });
    // An event appended by a writer that announces nothing (as another process on the same SQLite file would be).
    const seq = run.lastEventSeq + 1;
    await database.client.$executeRawUnsafe(`UPDATE "runs" SET "event_seq" = ${seq} WHERE "id" = '${run.id}'`);
    await database.client.runEvent.create({ data: { runId: run.id, seq, type: "test.unannounced", payload: "{}" } });
    const next = await stream.next();
    expect(next.value).toMatchObject({ seq, type: "test.unannounced" });
    await callerFor(database).runs.cancel({ runId: run.id });
    const rest: number[] = [];
    for (let item = await stream.next(); item.done !== true; item = await stream.next()) rest.push(item.value.seq);
    expect(rest[0]).toBe(seq + 1);
    expect(new Set(rest).size).toBe(rest.length);
  });
});
