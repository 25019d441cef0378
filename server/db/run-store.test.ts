import { beforeAll, expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import { canTransition, RUN_STATUSES, type RunStatus } from "./run-status";
import type { Database } from "./database";
import { eventsPage } from "./run-events";
import type { RunRecord } from "./run-record";
import { createRun, getRun, listRuns, requestCancel, transition } from "./run-store";
import { seedRun, seedWorkflow } from "./testing/fixtures";
import { describeEachDatabase } from "./testing/test-databases";

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof Error)) throw new Error("expected the promise to reject");
  return error;
}

describeEachDatabase("run store", (open) => {
  let database: Database;
  let ids: { workflowId: string; revisionId: string; planHash: string };

  beforeAll(async () => {
    database = (await open()).database;
    ids = await seedWorkflow(database);
  });

  /** A run brought into `status` through legal store transitions. */
  async function runIn(status: RunStatus): Promise<RunRecord> {
    let run = await seedRun(database, ids);
    if (status === "queued") return run;
    if (status === "cancelled") return transition(database, run.id, run.version, "cancelled");
    run = await transition(database, run.id, run.version, "running");
    if (status === "running") return run;
    return transition(database, run.id, run.version, status);
  }

  it("creates a queued run with version 1 and a run.created event", async () => {
    const { run, created } = await createRun(database, { ...ids, input: { a: 1 }, priority: 3, tokenBudget: 1000 });
    expect(created).toBe(true);
    expect(run).toMatchObject({ status: "queued", version: 1, priority: 3, input: { a: 1 }, tokenBudget: 1000, tokensUsed: 0, fencingToken: 0 });
    expect(run.id).toMatch(/^run_[0-9a-z]{22}$/);
    const events = await eventsPage(database, run.id);
    expect(events.map((event) => [event.seq, event.type])).toEqual([[1, "run.created"]]);
    expect(events[0]?.payload).toMatchObject({ workflow_id: ids.workflowId, revision_id: ids.revisionId, priority: 3 });
  });

  it("returns the same run for the same idempotency key (per workflow), also under concurrency", async () => {
    const first = await createRun(database, { ...ids, input: 1, idempotencyKey: "key-1" });
    const again = await createRun(database, { ...ids, input: 2, idempotencyKey: "key-1" });
    expect(again).toEqual({ run: first.run, created: false });
    const racing = await Promise.all(Array.from({ length: 5 }, () => createRun(database, { ...ids, input: 3, idempotencyKey: "key-2" })));
    expect(new Set(racing.map((result) => result.run.id)).size).toBe(1);
    expect(racing.filter((result) => result.created)).toHaveLength(1);
    const other = await seedWorkflow(database, "other");
    const elsewhere = await createRun(database, { ...other, input: 1, idempotencyKey: "key-1" });
    expect(elsewhere.created).toBe(true);
    expect(elsewhere.run.id).not.toBe(first.run.id);
  });

  it("refuses a revision of another workflow", async () => {
    const other = await seedWorkflow(database, "other");
    const error = await rejection(createRun(database, { workflowId: ids.workflowId, revisionId: other.revisionId, planHash: "p", input: null }));
    expect(isRathError(error, "not_found")).toBe(true);
    expect(error.message).toContain(`it belongs to workflow ${other.workflowId}`);
  });

  it("applies every legal transition and refuses every illegal one, through the store", async () => {
    for (const from of RUN_STATUSES) {
      for (const to of RUN_STATUSES) {
        const run = await runIn(from);
        expect(run.status).toBe(from);
        if (canTransition(from, to)) {
          const moved = await transition(database, run.id, run.version, to, { reason: "test" });
          expect(moved.status, `${from} -> ${to}`).toBe(to);
          expect(moved.version).toBe(run.version + 1);
          const events = await eventsPage(database, run.id, { afterSeq: run.lastEventSeq });
          expect(events.map((event) => event.payload)).toEqual([{ from, to, reason: "test" }]);
        } else {
          const error = await rejection(transition(database, run.id, run.version, to));
          expect(isRathError(error, "conflict"), `${from} -> ${to}`).toBe(true);
          expect(error.message).toContain(`${from} -> ${to}`);
          const unchanged = await getRun(database, run.id);
          expect(unchanged).toMatchObject({ status: from, version: run.version, lastEventSeq: run.lastEventSeq });
        }
      }
    }
  });

  it("refuses a stale version (optimistic update) and writes nothing", async () => {
    const run = await seedRun(database, ids);
    const running = await transition(database, run.id, run.version, "running");
    const error = await rejection(transition(database, run.id, run.version, "cancelled"));
    expect(isRathError(error, "conflict")).toBe(true);
    expect(error.message).toContain(`expected version ${run.version}, found ${running.version}`);
    expect(await getRun(database, run.id)).toEqual(running);
  });

  it("lets exactly one of two concurrent transitions from the same version win", async () => {
    const run = await runIn("running");
    const results = await Promise.allSettled([
      transition(database, run.id, run.version, "succeeded", { output: { answer: 42 } }),
      transition(database, run.id, run.version, "failed", { error: { code: "x", message: "boom" } }),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const final = await getRun(database, run.id);
    expect(final?.version).toBe(run.version + 1);
  });

  it("records output, error, finishedAt and clears the lease when leaving running", async () => {
    const running = await runIn("running");
    const done = await transition(database, running.id, running.version, "succeeded", {
      output: { answer: 42 },
      events: [{ type: "run.execution.completed", payload: { steps: 2 } }],
    });
    expect(done).toMatchObject({ status: "succeeded", output: { answer: 42 }, leaseOwner: null, leaseExpiresAt: null });
    expect(done.finishedAt).toBeInstanceOf(Date);
    expect(done.startedAt).toBeInstanceOf(Date);
    const events = await eventsPage(database, done.id);
    expect(events.map((event) => event.type)).toEqual(["run.created", "run.state.changed", "run.state.changed", "run.execution.completed"]);
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
    const failed = await runIn("running");
    const failure = await transition(database, failed.id, failed.version, "failed", { error: { code: "provider_error", message: "down", attempt: 3 } });
    expect(failure.error).toEqual({ code: "provider_error", message: "down", attempt: 3 });
  });

  it("refuses a transition with a stale fencing token", async () => {
    const running = await runIn("running");
    const error = await rejection(transition(database, running.id, running.version, "succeeded", { fencingToken: running.fencingToken + 1 }));
    expect(isRathError(error, "conflict")).toBe(true);
    expect(error.message).toContain("stale fencing token");
  });

  it("cancels queued runs at once and flags running runs", async () => {
    const queued = await runIn("queued");
    expect((await requestCancel(database, queued.id)).status).toBe("cancelled");
    const running = await runIn("running");
    const flagged = await requestCancel(database, running.id);
    expect(flagged).toMatchObject({ status: "running", cancelRequested: true, version: running.version });
    const done = await runIn("succeeded");
    expect(await requestCancel(database, done.id)).toEqual(done);
  });

  it("lists runs newest first with filters and a cursor", async () => {
    const mine = await seedWorkflow(database, "listing");
    const created: RunRecord[] = [];
    for (let index = 0; index < 5; index += 1) created.push(await seedRun(database, mine));
    const last = created[4] as RunRecord;
    await transition(database, last.id, last.version, "cancelled");
    const first = await listRuns(database, { workflowId: mine.workflowId, limit: 2 });
    expect(first.runs.map((run) => run.id)).toEqual([created[4]?.id, created[3]?.id]);
    const second = await listRuns(database, { workflowId: mine.workflowId, limit: 2, cursor: first.nextCursor ?? undefined });
    expect(second.runs.map((run) => run.id)).toEqual([created[2]?.id, created[1]?.id]);
    const third = await listRuns(database, { workflowId: mine.workflowId, limit: 2, cursor: second.nextCursor ?? undefined });
    expect(third).toEqual({ runs: [expect.objectContaining({ id: created[0]?.id })], nextCursor: null });
    const cancelled = await listRuns(database, { workflowId: mine.workflowId, status: "cancelled" });
    expect(cancelled.runs.map((run) => run.id)).toEqual([last.id]);
    const queued = await listRuns(database, { workflowId: mine.workflowId, status: ["queued", "running"] });
    expect(queued.runs).toHaveLength(4);
  });

  it("searches run ids and workflow names ignoring case", async () => {
    const mine = await seedWorkflow(database, "Nightly Triage Report");
    const run = await seedRun(database, mine);
    const byName = await listRuns(database, { search: "nIGHTLY tRIAGE" });
    expect(byName.runs.map((found) => found.id)).toEqual([run.id]);
    const byId = await listRuns(database, { search: run.id.slice(-10).toUpperCase() });
    expect(byId.runs.map((found) => found.id)).toEqual([run.id]);
    expect((await listRuns(database, { search: "nightly triage" })).runs.map((found) => found.id)).toEqual([run.id]);
    expect((await listRuns(database, { search: "triage nightly" })).runs).toEqual([]);
  });
});
