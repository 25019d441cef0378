import { expect, it } from "vitest";
import { listEffects } from "../db/effect-ledger";
import { commitStep } from "../db/run-commit";
import { claimNext, expireLeases } from "../db/run-lease";
import { getRun } from "../db/run-store";
import { describeEachDatabase } from "../db/testing/test-databases";
import { createProviderResolver } from "./provider-resolver";
import { executeClaimedRun } from "./run-executor";
import { resolveReview } from "./run-review";
import { runToCompletion } from "./run-to-completion";
import { allEvents, canonicalRunGraph } from "./testing/canonical-graph";
import { linearSpec, queueRun } from "./testing/engine-fixtures";
import { spawnCrashWorker, waitFor } from "./testing/spawn-worker";
import { createTestProvider } from "./testing/test-provider";
import { LeaseLostError } from "../db/lease-lost";

const PATH_TOOL = { name: "workspace_path_exists", arguments: { path: "notes.txt" } };

async function checkpointSeqs(database: Parameters<typeof getRun>[0], runId: string): Promise<number[]> {
  const rows = await database.client.checkpoint.findMany({ where: { runId }, orderBy: { seq: "asc" }, select: { seq: true } });
  return rows.map((row) => row.seq);
}

describeEachDatabase("run durability", (open) => {
  it("a worker killed mid-run is replaced after its lease expires; the result equals an uninterrupted run", async () => {
    const { database, url } = await open();
    const spec = linearSpec([
      { id: "first", directive: { tool: PATH_TOOL, usage: [10, 5] }, builtins: ["workspace_path_exists"] },
      { id: "second", directive: { delayMs: 2_500, usage: [20, 5] } },
    ]);
    const reference = await queueRun(database, spec, { input: "crash me" });
    expect((await runToCompletion(database, reference.id, { providers: { scripted: createTestProvider() } })).status).toBe("succeeded");

    const crashed = await queueRun(database, spec, { input: "crash me" });
    const worker = spawnCrashWorker(url);
    try {
      await waitFor(async () => (await checkpointSeqs(database, crashed.id)).length >= 2, 45_000, "the first agent's checkpoint");
    } finally {
      await worker.kill();
    }
    const killed = await getRun(database, crashed.id);
    expect(killed?.status).toBe("running");
    expect(killed?.leaseOwner).toBe("crash-worker");
    expect(await checkpointSeqs(database, crashed.id)).toEqual([1, 2]);

    const finished = await runToCompletion(database, crashed.id, { providers: { scripted: createTestProvider() }, pollMs: 100 });
    expect(finished.status).toBe("succeeded");
    expect(finished.fencingToken).toBe(2);
    expect((finished.output as { text: string }).text).toBe(((await getRun(database, reference.id))?.output as { text: string }).text);
    expect(await checkpointSeqs(database, crashed.id)).toEqual([1, 2, 3, 4]);
    expect(await canonicalRunGraph(database, crashed.id)).toEqual(await canonicalRunGraph(database, reference.id));
    expect(finished.tokensUsed).toBe(55);

    const events = await allEvents(database, crashed.id);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    const types = events.map((event) => event.type);
    expect(types).toContain("run.lease.expired");
    expect(types.filter((type) => type === "run.claimed")).toHaveLength(2);
    const effects = await listEffects(database, crashed.id);
    expect(effects.map((effect) => effect.status)).toEqual(["succeeded"]);
  }, 90_000);

  it("a non-idempotent tool call in flight when the worker is killed ends ambiguous and the run needs review", async () => {
    const { database, url } = await open();
    const spec = linearSpec([
      { id: "shell", directive: { tool: { name: "run_shell_command", arguments: { cmd: "sleep 30" } } }, builtins: ["run_shell_command"] },
    ]);
    const run = await queueRun(database, spec);
    const worker = spawnCrashWorker(url);
    try {
      await waitFor(async () => (await listEffects(database, run.id)).some((effect) => effect.status === "dispatched"), 45_000, "the shell call to be dispatched");
    } finally {
      await worker.kill();
    }
    const reviewed = await runToCompletion(database, run.id, { providers: { scripted: createTestProvider() }, pollMs: 100 });
    expect(reviewed.status).toBe("needs_review");
    expect(reviewed.error).toMatchObject({ code: "ambiguous_effects" });
    const effects = await listEffects(database, run.id);
    expect(effects).toHaveLength(1);
    expect(effects[0]).toMatchObject({ status: "ambiguous", tool: "run_shell_command", idempotent: false });
    expect(reviewed.error?.effects).toEqual([effects[0]?.id]);

    await expect(resolveReview(database, run.id, { action: "requeue", effects: [] })).rejects.toThrow(/undecided: /);
    const content = '{"exit_code":0,"stdout":"","stderr":"","elapsed_ms":30000}';
    const requeued = await resolveReview(database, run.id, { action: "requeue", effects: [{ effectId: effects[0]?.id as string, status: "succeeded", content }] });
    expect(requeued.status).toBe("queued");
    const done = await runToCompletion(database, run.id, { providers: { scripted: createTestProvider() } });
    expect(done.status).toBe("succeeded");
    const loop = await database.client.session.findFirst({ where: { runId: run.id, lineageKind: "op_session_loop" } });
    const toolResult = await database.client.chunk.findFirst({ where: { sessionId: loop?.id as string, kind: "tool_result" } });
    expect(JSON.parse(toolResult?.payload ?? "{}")).toMatchObject({ content });
    expect((await listEffects(database, run.id)).map((effect) => effect.status)).toEqual(["succeeded"]);
  }, 90_000);

  it("refuses the commit of a worker whose lease expired, logs it with the run id and both tokens, and stores nothing it tried to write", async () => {
    const { database } = await open();
    const spec = linearSpec([{ id: "slow", directive: { delayMs: 900 } }]);
    const run = await queueRun(database, spec);
    const resolveProvider = createProviderResolver({ providers: { scripted: createTestProvider() } });
    const claimA = await claimNext(database, "worker-a", 300);
    expect(claimA?.run.id).toBe(run.id);
    const logged: string[] = [];
    const executionA = executeClaimedRun(database, claimA!, { resolveProvider, leaseMs: 300, heartbeatMs: 60_000, logLeaseLost: (line) => logged.push(line) });
    await waitFor(async () => (await checkpointSeqs(database, run.id)).length === 1, 10_000, "worker A's first checkpoint");
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await expireLeases(database)).map((expired) => expired.id)).toEqual([run.id]);
    const claimB = await claimNext(database, "worker-b", 30_000);
    expect(claimB?.fencingToken).toBe(2);

    const outcomeA = await executionA;
    expect(outcomeA.status).toBe("abandoned");
    expect(await checkpointSeqs(database, run.id)).toEqual([1]);
    expect(await database.client.session.count({ where: { runId: run.id, lineageKind: "op_session_loop" } })).toBe(0);
    expect(logged).toEqual([
      `[rath worker] run ${run.id}: step commit refused, lease lost (stale_token): this worker's fencing token 1, the run's token 2, run status running; leaving the run to its current holder`,
    ]);
    const stale = await commitStep(database, run.id, claimA!.fencingToken, { events: [{ type: "stale.write" }] }).catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(LeaseLostError);
    expect(stale).toMatchObject({ code: "conflict", runId: run.id, givenToken: 1, currentToken: 2, reason: "stale_token" });

    const outcomeB = await executeClaimedRun(database, claimB!, { resolveProvider, leaseMs: 30_000 });
    expect(outcomeB.status).toBe("succeeded");
    expect(await checkpointSeqs(database, run.id)).toEqual([1, 2, 3]);
    expect(await database.client.session.count({ where: { runId: run.id, lineageKind: "op_session_loop" } })).toBe(1);
    const types = (await allEvents(database, run.id)).map((event) => event.type);
    expect(types).not.toContain("stale.write");
    expect(types.filter((type) => type === "run.execution.completed")).toHaveLength(1);
  }, 30_000);
});
