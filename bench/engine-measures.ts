/**
 * Measures of the durable engine: steps committed per second, where a step is one checkpoint written — on our
 * side one node executed and its sessions, chunks, events and checkpoint committed in one transaction; on
 * LangGraph's one super-step checkpointed by its SQLite saver. The same chain (input -> N model-calling nodes ->
 * output) writes N + 2 checkpoints per run on both sides, and both are counted from the checkpoints table.
 * Both SQLite databases run with WAL and synchronous=NORMAL.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import pg from "pg";
import type { ModelRequest, ModelResponse, Provider } from "../runtime/providers/types";
import { openDatabase, type Database } from "../server/db/database";
import { createWorker } from "../server/engine/worker";
import type { RunRecord } from "../server/db/run-record";
import { createRun } from "../server/db/run-store";
import { createWorkflow, saveRevision } from "../server/db/workflow-store";
import { runTimeout } from "../server/engine/run-deadline";
import { compileWorkflow } from "../server/engine/spec/compile";
import { linearSpec } from "../server/engine/testing/engine-fixtures";

/**
 * Sizes of one engine measure: runs queued and agents per run (checkpoints per run = agents + 2 on both sides), and
 * `leadInRuns` run first on the same fresh database and connection but not timed (default 0): the first queries of a
 * fresh client or connection (query compilers, prepared statements, the worker's first sweep) are a start-up cost,
 * not a step's.
 */
export interface EngineBenchSize {
  runs: number;
  agents: number;
  leadInRuns?: number;
}

/** A provider that answers every request at once with a short text and usage (no request copies kept). */
export function createInstantAnswerProvider(): Provider {
  return {
    name: "scripted",
    kind: "scripted",
    defaultModel: "bench-instant",
    async complete(request: ModelRequest): Promise<ModelResponse> {
      return { content: "ok", toolCalls: [], finishReason: "stop", usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 }, model: request.model, latencyMs: 0 };
    },
  };
}

/** Called around the timed worker phase (bench/engine-profile.ts starts and stops a CPU profile there). */
export interface WorkerPhaseHooks {
  onWorkerStart?: () => Promise<void>;
  onWorkerEnd?: () => Promise<void>;
}

/**
 * Queues `size.runs` runs of input -> `size.agents` agents -> output, then lets a worker with `workers` claim loops
 * execute them; returns checkpoints committed per second, from the worker's start to the last run's outcome (the
 * worker reports each outcome, so nothing polls the database meanwhile). With `size.leadInRuns`, as many runs go
 * through a worker of their own first, untimed. Throws unless every run succeeded with `agents + 2` checkpoints.
 */
export async function measureEngineSteps(database: Database, size: EngineBenchSize, workers: number, hooks: WorkerPhaseHooks = {}): Promise<number> {
  const spec = linearSpec(Array.from({ length: size.agents }, (_, index) => ({ id: `agent${index}`, directive: {} })));
  const queue = await runQueue(database, spec);
  if ((size.leadInRuns ?? 0) > 0) await runWorkerPhase(database, queue, size.leadInRuns ?? 0, size.agents, workers, {});
  return runWorkerPhase(database, queue, size.runs, size.agents, workers, hooks);
}

/**
 * Queues runs of `spec`: one workflow and revision, then a run per call (as the engine fixtures' `queueRun` does for
 * each run, but without a workflow and revision per run, which made queueing most of the bench's time).
 */
async function runQueue(database: Database, spec: unknown): Promise<() => Promise<RunRecord>> {
  const plan = compileWorkflow(spec);
  const workflow = await createWorkflow(database, { name: plan.name });
  const revision = await saveRevision(database, { workflowId: workflow.id, parentRevisionId: null, spec, specSha256: plan.hash, planId: plan.id });
  const input = { workflowId: workflow.id, revisionId: revision.id, planHash: plan.hash, input: "hello", ...runTimeout(undefined, plan.settings) };
  return async () => (await createRun(database, input)).run;
}

async function runWorkerPhase(database: Database, queue: () => Promise<RunRecord>, count: number, agents: number, workers: number, hooks: WorkerPhaseHooks): Promise<number> {
  const runs: RunRecord[] = [];
  for (let index = 0; index < count; index += 1) runs.push(await queue());
  const pending = new Set(runs.map((run) => run.id));
  const failures: string[] = [];
  let finished: () => void = () => undefined;
  const allFinished = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const worker = createWorker({
    db: database,
    concurrency: workers,
    leaseMs: 60_000,
    pollMs: 5,
    providers: { scripted: createInstantAnswerProvider() },
    onOutcome: (runId, outcome) => {
      if (!pending.delete(runId)) return;
      if (outcome.status !== "succeeded") failures.push(`${runId} ended ${outcome.status}`);
      if (pending.size === 0) finished();
    },
    onError: (error) => failures.push(error instanceof Error ? error.message : String(error)),
  });
  await hooks.onWorkerStart?.();
  const started = performance.now();
  worker.start();
  try {
    await allFinished;
  } finally {
    await worker.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  await hooks.onWorkerEnd?.();
  if (failures.length > 0) throw new Error(`bench runs failed: ${failures.slice(0, 3).join("; ")}`);
  const steps = await database.client.checkpoint.count({ where: { runId: { in: runs.map((run) => run.id) } } });
  if (steps !== count * (agents + 2)) throw new Error(`expected ${count * (agents + 2)} checkpoints, found ${steps}`);
  return steps / seconds;
}

/** Opens a fresh SQLite database (WAL, synchronous=NORMAL: the defaults) in a temp directory; `dispose` closes and deletes it. */
export async function temporarySqlite(): Promise<{ database: Database; dispose: () => Promise<void> }> {
  const directory = mkdtempSync(path.join(os.tmpdir(), "rath-bench-"));
  const database = await openDatabase({ url: `file:${path.join(directory, "bench.db")}`, sqliteSynchronous: "normal" });
  return {
    database,
    dispose: async () => {
      await database.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Creates a fresh PostgreSQL database on `adminUrl`; `dispose` drops it. */
export async function temporaryPostgres(adminUrl: string, poolSize: number): Promise<{ database: Database; dispose: () => Promise<void> }> {
  const name = `rath_bench_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize });
  return {
    database,
    dispose: async () => {
      await database.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await dropper.end();
    },
  };
}

class InstantAnswerChatModel extends BaseChatModel {
  _llmType(): string {
    return "bench-instant";
  }

  async _generate(): Promise<ChatResult> {
    const message = new AIMessage({ content: "ok" });
    return { generations: [{ text: "ok", message }] };
  }
}

/**
 * The same chain on LangGraph: `size.agents` nodes that each call an instant chat model and append its message,
 * checkpointed by SqliteSaver on a fresh temp file (WAL, synchronous=NORMAL), one thread per run; returns
 * checkpoints written per second, counted from its checkpoints table. With `size.leadInRuns`, as many runs (threads
 * of their own) go first on the same saver, untimed and not counted.
 */
export async function measureLangGraphSqliteSteps(size: EngineBenchSize): Promise<number> {
  const directory = mkdtempSync(path.join(os.tmpdir(), "rath-bench-langgraph-"));
  const saver = SqliteSaver.fromConnString(path.join(directory, "checkpoints.db"));
  try {
    saver.db.pragma("journal_mode = WAL");
    saver.db.pragma("synchronous = NORMAL");
    const model = new InstantAnswerChatModel({});
    let builder = new StateGraph(MessagesAnnotation) as unknown as StateGraph<typeof MessagesAnnotation.spec, unknown, unknown, string>;
    const names = Array.from({ length: size.agents }, (_, index) => `agent${index}`);
    for (const name of names) builder = builder.addNode(name, async (state: typeof MessagesAnnotation.State) => ({ messages: [await model.invoke(state.messages)] }));
    builder = builder.addEdge(START, names[0] as string);
    for (let index = 1; index < names.length; index += 1) builder = builder.addEdge(names[index - 1] as string, names[index] as string);
    builder = builder.addEdge(names.at(-1) as string, END);
    const graph = builder.compile({ checkpointer: saver });
    const invoke = async (threadId: string): Promise<void> => {
      const output = await graph.invoke({ messages: [{ role: "user", content: "hello" }] }, { configurable: { thread_id: threadId } });
      if (output.messages.length !== size.agents + 1) throw new Error("LangGraph chain did not run every node");
    };
    for (let run = 0; run < (size.leadInRuns ?? 0); run += 1) await invoke(`lead-in-${run}`);
    const started = performance.now();
    for (let run = 0; run < size.runs; run += 1) await invoke(`run-${run}`);
    const seconds = (performance.now() - started) / 1000;
    const { count } = saver.db.prepare("SELECT count(*) AS count FROM checkpoints WHERE thread_id LIKE 'run-%'").get() as { count: number };
    if (count !== size.runs * (size.agents + 2)) throw new Error(`expected ${size.runs * (size.agents + 2)} LangGraph checkpoints, found ${count}`);
    const synchronous = saver.db.pragma("synchronous", { simple: true });
    if (synchronous !== 1) throw new Error(`expected LangGraph's SQLite at synchronous=NORMAL (1); found ${String(synchronous)}`);
    return count / seconds;
  } finally {
    saver.db.close();
    rmSync(directory, { recursive: true, force: true });
  }
}
