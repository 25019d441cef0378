/**
 * Several processes writing one SQLite file (a worker beside the studio, `rath run` beside both): real, separate
 * `tsx` processes started together on one file. Every write succeeds (no SQLITE_BUSY reaches a caller), every
 * row is there, each run's events are numbered 1..n without gaps, and two processes claiming from one queue never
 * both win a run, and a claimer that found the queue empty sees a run another process queued afterwards. SQLite only: PostgreSQL has row locks and its own multi-process tests (server/cli).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, sqliteConnectionOf, type Database } from "./database";
import { claimNext, expireDeadlines, expireLeases } from "./run-lease";
import { seedRun, seedWorkflow } from "./testing/fixtures";
import { runTogether as runScripts } from "./testing/run-together";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Runs scripts of testing/ (name and arguments) together on `url` (testing/run-together.ts). */
function runTogether<Report>(url: string, commands: string[][]) {
  return runScripts<Report>(url, commands.map(([script = "", ...args]) => [path.join(here, "testing", script), ...args]));
}
/** `[run id, event seqs in order]` for the runs given, read in one query. */
async function eventSeqs(database: Database, runIds: readonly string[]): Promise<Map<string, number[]>> {
  const rows = await database.client.runEvent.findMany({ where: { runId: { in: [...runIds] } }, select: { runId: true, seq: true }, orderBy: [{ runId: "asc" }, { seq: "asc" }] });
  const seqs = new Map<string, number[]>(runIds.map((id) => [id, []]));
  for (const row of rows) seqs.get(row.runId)?.push(row.seq);
  return seqs;
}

describe("several processes on one SQLite file", () => {
  const directories: string[] = [];
  const handles: Database[] = [];
  afterAll(async () => {
    await Promise.all(handles.map((handle) => handle.close()));
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  });
  async function freshDatabase(): Promise<{ url: string; database: Database }> {
    const directory = mkdtempSync(path.join(os.tmpdir(), "rath-sqlite-processes-"));
    directories.push(directory);
    const url = `file:${path.join(directory, "studio.db")}`;
    const database = await openDatabase({ url });
    handles.push(database);
    return { url, database };
  }

  it("3 processes each create 30 runs and commit their steps at once: no errors, every row, contiguous event seqs", async () => {
    const { url, database } = await freshDatabase();
    const { workflowId, revisionId } = await seedWorkflow(database);
    const writers = ["1", "2", "3"].map((label) => ["concurrent-writer.ts", "--workflow", workflowId, "--revision", revisionId, "--runs", "30", "--label", label]);
    const results = await runTogether<{ runIds: string[]; errors: string[] }>(url, writers);

    for (const { report } of results) {
      expect(report.errors).toEqual([]);
      expect(report.runIds).toHaveLength(30);
    }
    const runIds = results.flatMap(({ report }) => report.runIds);
    expect(new Set(runIds).size).toBe(90);
    const runs = await database.client.run.findMany({ where: { workflowId }, select: { id: true, status: true, eventSeq: true, checkpointSeq: true } });
    expect(runs).toHaveLength(90);
    expect(runs.filter((run) => run.status !== "succeeded" || run.checkpointSeq !== 2 || run.eventSeq !== 8)).toEqual([]);
    // created 1, claim 2, two commits 2 each, succeeded 1.
    const seqs = await eventSeqs(database, runIds);
    expect([...seqs.entries()].filter(([, list]) => list.join(",") !== "1,2,3,4,5,6,7,8")).toEqual([]);
    expect(await database.client.checkpoint.count({ where: { runId: { in: runIds } } })).toBe(180);
    const sessions = await database.client.session.findMany({ where: { runId: { in: runIds } }, select: { id: true, chunkCount: true } });
    expect(sessions).toHaveLength(90);
    expect(sessions.filter((session) => session.chunkCount !== 2)).toEqual([]);
    expect(await database.client.chunk.count({ where: { sessionId: { in: sessions.map((session) => session.id) } } })).toBe(180);
  });

  it("two processes claiming from one queue while a third queues runs never both win a run", async () => {
    const { url, database } = await freshDatabase();
    const { workflowId, revisionId } = await seedWorkflow(database);
    const seeded: string[] = [];
    for (let index = 0; index < 20; index += 1) seeded.push((await seedRun(database, { workflowId, revisionId })).id);
    const total = String(seeded.length + 20);
    type ClaimReport = { claims: Array<{ runId: string; fencingToken: number }>; errors: string[] };
    type QueueReport = { runIds: string[]; errors: string[] };
    const results = await runTogether<ClaimReport | QueueReport>(url, [
      ["queue-claimer.ts", "--worker-id", "claimer-a", "--total", total],
      ["queue-claimer.ts", "--worker-id", "claimer-b", "--total", total],
      ["concurrent-writer.ts", "--workflow", workflowId, "--revision", revisionId, "--runs", "20", "--label", "producer", "--queue-only"],
    ]);

    const [first, second] = results.slice(0, 2).map(({ report }) => report as ClaimReport) as [ClaimReport, ClaimReport];
    const producer = results[2]?.report as QueueReport;
    expect([...first.errors, ...second.errors, ...producer.errors]).toEqual([]);
    const queued = [...seeded, ...producer.runIds];
    expect(queued).toHaveLength(40);
    const firstIds = first.claims.map((claim) => claim.runId);
    const secondIds = second.claims.map((claim) => claim.runId);
    expect(firstIds.filter((id) => secondIds.includes(id))).toEqual([]);
    expect([...firstIds, ...secondIds].sort()).toEqual([...queued].sort());
    expect([...first.claims, ...second.claims].every((claim) => claim.fencingToken === 1)).toBe(true);

    const runs = await database.client.run.findMany({ where: { id: { in: queued } }, select: { id: true, status: true, leaseOwner: true, fencingToken: true, checkpointSeq: true } });
    const owners = new Map([...firstIds.map((id) => [id, "claimer-a"] as const), ...secondIds.map((id) => [id, "claimer-b"] as const)]);
    expect(runs.filter((run) => run.status !== "running" || run.fencingToken !== 1 || run.checkpointSeq !== 1 || run.leaseOwner !== owners.get(run.id))).toEqual([]);
    expect(await database.client.runEvent.count({ where: { runId: { in: queued }, type: "run.claimed" } })).toBe(40);
    const seqs = await eventSeqs(database, queued);
    // created 1, claim 2, one commit 2.
    expect([...seqs.entries()].filter(([, list]) => list.join(",") !== "1,2,3,4,5")).toEqual([]);
  });

  it("a claimer that found the queue empty claims the run another process queues next (its connection keeps no read snapshot)", async () => {
    const { url, database } = await freshDatabase();
    const { workflowId, revisionId } = await seedWorkflow(database);
    // In WAL mode a read transaction left open on the claimer's connection (an open BEGIN, a statement not reset)
    // would keep showing it the queue as it was: empty.
    for (const label of ["late-1", "late-2"]) {
      // What a worker's loop does between two claims: the sweep's reads, then a claim that finds nothing.
      expect(await expireLeases(database)).toEqual([]);
      expect(await expireDeadlines(database)).toEqual([]);
      expect(await claimNext(database, "claimer", 10_000)).toBeNull();
      expect(sqliteConnectionOf(database)?.inTransaction).toBe(false);
      const [producer] = await runTogether<{ runIds: string[]; errors: string[] }>(url, [
        ["concurrent-writer.ts", "--workflow", workflowId, "--revision", revisionId, "--runs", "1", "--label", label, "--queue-only"],
      ]);
      expect(producer?.report.errors).toEqual([]);
      const claim = await claimNext(database, "claimer", 10_000);
      expect(claim?.run.id).toBe(producer?.report.runIds[0]);
      expect(claim?.run.leaseOwner).toBe("claimer");
    }
  });
});
