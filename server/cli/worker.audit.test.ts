/**
 * Server mode as documented: `npm run worker` started twice as real, separate processes on one database. A batch
 * of queued runs is executed exactly once each (one `run.claimed` per run, the same session graph and chunks as
 * a run executed in this process), both processes take part, the database password never reaches their output,
 * and SIGTERM stops them cleanly. A worker process killed with SIGKILL mid-run is replaced by another process,
 * which finishes the run from its last checkpoint once the lease expired. Runs on PostgreSQL (server mode) and on
 * one shared SQLite file (several processes on one machine; see server/db/README.md on SQLite write locks).
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { startChatCompletionsServer, type ChatCompletionsReply } from "../../runtime/testing/chat-completions-server";
import { saveProviderSetting } from "../db/provider-settings-store";
import type { RunRecord } from "../db/run-record";
import { describeEachDatabase } from "../db/testing/test-databases";
import { runToCompletion } from "../engine/run-to-completion";
import { allEvents, canonicalRunGraph } from "../engine/testing/canonical-graph";
import { linearSpec, queueRun } from "../engine/testing/engine-fixtures";
import { waitFor } from "../engine/testing/spawn-worker";
import { directiveOfSystem } from "../engine/testing/test-provider";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BATCH = 10;

interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `npm run worker -- --worker-id <id> ...` in its own process group, on `url`. */
function startWorkerProcess(url: string, workerId: string, options: { leaseMs?: number; concurrency?: number } = {}): WorkerProcess {
  const environment: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: url };
  delete environment.RATH_DB_PATH;
  const child = spawn("npm", ["run", "--silent", "worker", "--", "--worker-id", workerId, "--poll-ms", "50", "--lease-ms", String(options.leaseMs ?? 15_000), "--concurrency", String(options.concurrency ?? 2)], {
    cwd: root,
    env: environment,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (data: Buffer) => (output += data.toString()));
  child.stderr?.on("data", (data: Buffer) => (output += data.toString()));
  // "close" waits for every process holding the output pipes (npm, tsx and the worker itself) to end.
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

function signalGroup(worker: WorkerProcess, signal: NodeJS.Signals): void {
  if (worker.child.pid === undefined) return;
  try {
    process.kill(-worker.child.pid, signal);
  } catch {
    // The whole group has exited already.
  }
}

/** The same database url with a password (the test server trusts every connection, so any password works). */
function withPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = PASSWORD;
  return parsed.toString();
}

const PASSWORD = "s3cret-worker-pw";

/** The model's answer to a request of a `linearSpec` agent, after the `delayMs` of its TEST directive (the system message). */
function directedReply(body: unknown): ChatCompletionsReply {
  const messages = (body as { messages?: Array<{ role?: string; content?: unknown }> } | null)?.messages ?? [];
  const system = messages.find((message) => message.role === "system")?.content;
  const directive = directiveOfSystem(typeof system === "string" ? system : "");
  return { type: "completion", content: `${directive.name} answers`, ...(directive.delayMs === undefined ? {} : { delayMs: directive.delayMs }) };
}

describeEachDatabase("npm run worker (separate processes)", (open, provider) => {
  it("two worker processes execute a batch of runs exactly once each", async () => {
    const { database, url } = await open();
    // Each run takes ≥ 1.8 s, most of it waiting on the model without writing, so one process (2 loops) cannot
    // drain the batch before the other claims. The model is a Chat Completions server that both worker processes
    // reach through a stored provider setting, and it waits as each agent's TEST directive says. (A worker process
    // resolves "scripted" to the demo provider, which ignores those delays: with it a run took ~20 ms, the batch
    // ~200 ms, and one process could drain it while the other's one claim waited for SQLite's write lock.)
    const upstream = await startChatCompletionsServer({ script: (request) => directedReply(request.body) });
    await saveProviderSetting(database, { name: "slow", kind: "openai", baseUrl: upstream.baseURL, model: "slow-model", apiKey: "test-key" });
    const spec = linearSpec(
      [
        { id: "first", directive: { delayMs: 1_500 } },
        { id: "second", directive: { delayMs: 300 } },
      ],
      { defaultProvider: "slow", defaultModel: "slow-model" },
    );
    const reference = await queueRun(database, spec, { input: "batch" });
    expect((await runToCompletion(database, reference.id)).status).toBe("succeeded");
    const expectedGraph = await canonicalRunGraph(database, reference.id);

    const workers = [startWorkerProcess(withPassword(url), "proc-a"), startWorkerProcess(withPassword(url), "proc-b")];
    try {
      for (const worker of workers) {
        await waitFor(async () => /loop\(s\) on/.test(worker.output()) || worker.child.exitCode !== null, 60_000, "the worker to start");
        expect(worker.output()).toContain(`[rath worker ${worker === workers[0] ? "proc-a" : "proc-b"}] 2 loop(s) on ${provider}`);
      }
      const runs: RunRecord[] = [];
      for (let index = 0; index < BATCH; index += 1) runs.push(await queueRun(database, spec, { input: "batch" }));
      await waitFor(
        async () => {
          const rows = await database.client.run.findMany({ where: { id: { in: runs.map((run) => run.id) } }, select: { status: true } });
          return rows.every((row) => row.status === "succeeded");
        },
        90_000,
        "every run of the batch to succeed",
      );

      const claimers = new Map<string, number>();
      const runLengths: number[] = [];
      for (const run of runs) {
        const events = await allEvents(database, run.id);
        const claims = events.filter((event) => event.type === "run.claimed");
        expect(claims, `claims of ${run.id}`).toHaveLength(1);
        const completed = events.find((event) => event.type === "run.execution.completed");
        runLengths.push((completed?.at.getTime() ?? Number.NaN) - (claims[0]?.at.getTime() ?? Number.NaN));
        const workerId = String(claims[0]?.payload.worker_id).split("#")[0] as string;
        claimers.set(workerId, (claimers.get(workerId) ?? 0) + 1);
        expect(events.filter((event) => event.type === "run.execution.completed")).toHaveLength(1);
        expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
        expect(await canonicalRunGraph(database, run.id)).toEqual(expectedGraph);
        const checkpoints = await database.client.checkpoint.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" }, select: { seq: true } });
        expect(checkpoints.map((checkpoint) => checkpoint.seq)).toEqual([1, 2, 3, 4]);
      }
      const outputs = workers.map((worker) => worker.output().slice(-2_000)).join("\n---\n");
      const takingPart = `runs per process ${JSON.stringify([...claimers])}; run lengths ${JSON.stringify(runLengths)} ms; output:\n${outputs}`;
      // The premise of the next check: each run took as long as its model made it wait.
      expect(Math.min(...runLengths), takingPart).toBeGreaterThanOrEqual(1_800);
      expect([...claimers.keys()].sort(), takingPart).toEqual(["proc-a", "proc-b"]);
      expect([...claimers.values()].reduce((sum, count) => sum + count, 0)).toBe(BATCH);
    } finally {
      for (const worker of workers) signalGroup(worker, "SIGTERM");
      const codes = await Promise.race([
        Promise.all(workers.map((worker) => worker.exited)),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000)),
      ]);
      for (const worker of workers) signalGroup(worker, "SIGKILL");
      await upstream.close();
      expect(codes, workers.map((worker) => worker.output()).join("\n")).not.toBeNull();
    }
    for (const worker of workers) {
      expect(worker.output(), worker.output()).toMatch(/SIGTERM: stopping after the current step/);
      expect(worker.output()).not.toContain(PASSWORD);
    }
    expect(await database.client.run.count({ where: { status: "running" } })).toBe(0);
  }, 180_000);
});

describeEachDatabase("npm run worker killed mid-run", (open, _provider) => {
  it("a worker process killed with SIGKILL mid-run is replaced; the run resumes from its checkpoint", async () => {
    const { database, url } = await open();
    // A slow OpenAI-compatible model both worker processes reach through a stored provider setting.
    const upstream = await startChatCompletionsServer({ script: () => ({ type: "completion", content: "slow answer", delayMs: 1_200 }) });
    await saveProviderSetting(database, { name: "slow", kind: "openai", baseUrl: upstream.baseURL, model: "slow-model", apiKey: "test-key" });
    const spec = linearSpec(
      [
        { id: "first", directive: {} },
        { id: "second", directive: {} },
      ],
      { defaultProvider: "slow", defaultModel: "slow-model" },
    );
    const runs: RunRecord[] = [];
    for (let index = 0; index < 3; index += 1) runs.push(await queueRun(database, spec, { input: "same input" }));
    const crashed = runs[0] as RunRecord;
    const checkpoints = async (runId: string) =>
      (await database.client.checkpoint.findMany({ where: { runId }, orderBy: { seq: "asc" }, select: { seq: true } })).map((row) => row.seq);

    const doomed = startWorkerProcess(url, "doomed", { leaseMs: 2_000, concurrency: 1 });
    let survivor: WorkerProcess | undefined;
    try {
      await waitFor(async () => (await checkpoints(crashed.id)).length >= 2 || doomed.child.exitCode !== null, 60_000, "the first agent's checkpoint");
      signalGroup(doomed, "SIGKILL");
      await doomed.exited;
      expect(await checkpoints(crashed.id)).toEqual([1, 2]);
      expect(await database.client.run.findUnique({ where: { id: crashed.id }, select: { status: true, leaseOwner: true } })).toEqual({
        status: "running",
        leaseOwner: "doomed",
      });

      survivor = startWorkerProcess(url, "survivor", { leaseMs: 2_000, concurrency: 1 });
      const statuses = async () => database.client.run.findMany({ where: { id: { in: runs.map((run) => run.id) } }, select: { id: true, status: true, leaseOwner: true } });
      await waitFor(async () => (await statuses()).every((run) => run.status === "succeeded"), 90_000, "every run to succeed").catch(async (error: unknown) => {
        throw new Error(`${(error as Error).message}; runs ${JSON.stringify(await statuses())}; survivor output: ${survivor?.output().slice(-3000)}`);
      });
    } finally {
      for (const worker of [doomed, survivor]) if (worker) signalGroup(worker, "SIGKILL");
      await Promise.all([doomed.exited, survivor?.exited]);
      await upstream.close();
    }

    const crashedEvents = await allEvents(database, crashed.id);
    expect(crashedEvents.map((event) => event.seq)).toEqual(crashedEvents.map((_, index) => index + 1));
    expect(crashedEvents.filter((event) => event.type === "run.claimed").map((event) => event.payload.worker_id)).toEqual(["doomed", "survivor"]);
    expect(crashedEvents.map((event) => event.type)).toContain("run.lease.expired");
    expect(await checkpoints(crashed.id)).toEqual([1, 2, 3, 4]);
    for (const run of runs.slice(1)) {
      const claims = (await allEvents(database, run.id)).filter((event) => event.type === "run.claimed");
      expect(claims.map((event) => event.payload.worker_id)).toEqual(["survivor"]);
      expect(await canonicalRunGraph(database, crashed.id)).toEqual(await canonicalRunGraph(database, run.id));
    }
    // 3 runs × 2 agents, plus at most the one request the killed worker had in flight: the first agent of the
    // crashed run was not asked again.
    expect(upstream.completionRequests().length).toBeGreaterThanOrEqual(6);
    expect(upstream.completionRequests().length).toBeLessThanOrEqual(7);
  }, 180_000);
});
