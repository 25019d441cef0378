/**
 * `rath run SPEC.json [--input TEXT] [--timeout-ms MS] [--json] [--db PATH]`: validates a workflow spec, saves it as a revision in
 * the embedded database (default .rath/studio.db, or DATABASE_URL), starts a run and executes it in this process
 * until it is terminal or waits for a person, then prints the run id, status and output. Exit codes: 0 succeeded,
 * 1 any other final status, 2 bad usage or an invalid spec (its problems are printed with their node ids).
 * `rath run --fork-from SESSION_ID:CHUNK_INDEX [--input TEXT] [--instructions TEXT] [--model NAME]` forks a stored
 * run at that chunk instead (server/services/fork-service.ts) and runs the fork the same way.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { isRathError } from "../../runtime/errors";
import { openDatabase, type Database } from "../db/database";
import { listPendingInterrupts, type InterruptRecord } from "../db/interrupt-store";
import { runToCompletion } from "../engine/run-to-completion";
import { chooseSandboxBackend } from "../engine/sandbox-choice";
import { formatPath, type Problem } from "../../runtime/workflow-spec/problems";
import { validateWorkflowSpec } from "../../runtime/workflow-spec/validate";
import { QUEUE_ONLY_EXECUTOR } from "../services/run-executor";
import { startRun } from "../services/run-service";
import { forkFromChunk } from "../services/fork-service";

const USAGE = `Usage: rath run SPEC.json [--input TEXT] [--timeout-ms MS] [--json] [--db PATH]
       rath run --fork-from SESSION_ID:CHUNK_INDEX [--input TEXT] [--instructions TEXT] [--model NAME] [--json] [--db PATH]

Validates the workflow spec, saves it as a revision, runs it in this process and prints the result.
With --fork-from, starts a new run forked from a stored session at that chunk instead: the chunks up to it are
replayed from the database (no model call, no tool run), then the run continues live.

Options:
  --input TEXT   the run's input (the Input node's text; default: the node's defaultText);
                 with --fork-from: the new text of the run's input chunk
  --fork-from SESSION_ID:CHUNK_INDEX
                 fork a stored run from that session's chunk (0-based)
  --instructions TEXT, --model NAME
                 with --fork-from: the next agent's new system prompt / model
  --timeout-ms MS the run ends timed_out when it is not finished MS ms after it started
                 (default: the spec's settings.runTimeoutMs, else no timeout)
  --json         print one JSON object {run_id, status, output, error}
  --db PATH      the SQLite database file (default: DATABASE_URL, RATH_DB_PATH or .rath/studio.db)
  -h, --help     show this help

Exit codes: 0 succeeded, 1 failed / waiting / cancelled / timed_out, 2 usage error or invalid spec.
Providers named "scripted" or "demo" (and, offline, any provider without an API key) use the demo provider.
`;

interface RunArguments {
  specFile: string | undefined;
  forkFrom: { sessionId: string; chunkIndex: number } | undefined;
  instructions: string | undefined;
  model: string | undefined;
  input: string | undefined;
  timeoutMs: number | undefined;
  json: boolean;
  databasePath: string | undefined;
}

class UsageError extends Error {}

/** Parses the arguments with `node:util` parseArgs (`--input=a=b` keeps `a=b`; `--` ends the options). */
export function parseArguments(args: readonly string[]): RunArguments | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        help: { type: "boolean", short: "h", default: false },
        json: { type: "boolean", default: false },
        input: { type: "string" },
        "timeout-ms": { type: "string" },
        db: { type: "string" },
        "fork-from": { type: "string" },
        instructions: { type: "string" },
        model: { type: "string" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  const forkFrom = values["fork-from"] === undefined ? undefined : parseForkFrom(values["fork-from"]);
  if (positionals.length === 0 && forkFrom === undefined) throw new UsageError("expected a spec file (SPEC.json) or --fork-from SESSION_ID:CHUNK_INDEX");
  if (positionals.length > 0 && forkFrom !== undefined) throw new UsageError(`expected a spec file or --fork-from, not both (found '${positionals[0]}')`);
  if (positionals.length > 1) throw new UsageError(`expected one spec file, found another argument '${positionals[1]}'`);
  if (forkFrom === undefined && (values.instructions !== undefined || values.model !== undefined)) {
    throw new UsageError("--instructions and --model change the next agent of a fork; use them with --fork-from");
  }
  return {
    specFile: positionals[0],
    forkFrom,
    instructions: values.instructions,
    model: values.model,
    input: values.input,
    timeoutMs: values["timeout-ms"] === undefined ? undefined : parseTimeout(values["timeout-ms"]),
    json: values.json,
    databasePath: values.db,
  };
}

function parseForkFrom(text: string): { sessionId: string; chunkIndex: number } {
  const match = /^(.+):(\d+)$/.exec(text);
  const chunkIndex = match === null ? NaN : Number(match[2]);
  if (match === null || !Number.isSafeInteger(chunkIndex)) {
    throw new UsageError(`--fork-from expects SESSION_ID:CHUNK_INDEX (a session id and a 0-based chunk index); found '${text}'`);
  }
  return { sessionId: match[1] as string, chunkIndex };
}

function parseTimeout(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value <= 0) {
    throw new UsageError(`--timeout-ms expects a positive whole number of milliseconds; found '${text}'`);
  }
  return value;
}

/**
 * One line per problem: where (node, edge, or the path in the spec) and the message, once. Field messages start
 * with their path already (the canvas shows them alone), so the path is not repeated in front of them.
 */
export function describeProblem(problem: Problem): string {
  const path = problem.path && problem.path.length > 0 ? formatPath(problem.path) : null;
  const message = path !== null && problem.message.startsWith(`${path}: `) ? problem.message.slice(path.length + 2) : problem.message;
  const owner = problem.nodeId ? `node ${problem.nodeId}` : problem.edgeId ? `edge ${problem.edgeId}` : null;
  const where = [owner, path].filter((part) => part !== null).join(", ") || "(spec)";
  return `  ${where}: ${message} [${problem.code}]`;
}

async function readSpec(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

function printResult(
  options: RunArguments,
  result: { run_id: string; status: string; output: unknown; error: unknown },
  pending: readonly InterruptRecord[],
): void {
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  const output = result.output as { text?: unknown } | null;
  const text = output !== null && typeof output === "object" && typeof output.text === "string" ? output.text : null;
  process.stdout.write(`run ${result.run_id}\nstatus ${result.status}\n`);
  if (text !== null) process.stdout.write(`output\n${text}\n`);
  else if (result.output !== null) process.stdout.write(`output ${JSON.stringify(result.output)}\n`);
  if (result.error !== null) process.stdout.write(`error ${JSON.stringify(result.error)}\n`);
  for (const interrupt of pending) {
    process.stdout.write(`waiting for a decision on interrupt ${interrupt.id} (node ${interrupt.nodeId}); decide it in the IDE or with runs.decideInterrupt\n`);
  }
}

/** Runs a started run in this process, prints it and returns the exit code (0 only when it succeeded). */
async function executeAndPrint(database: Database, options: RunArguments, runId: string, deadlineAt: string | null, backend: string): Promise<number> {
  const deadline = deadlineAt === null ? null : Date.parse(deadlineAt) - Date.now();
  // The run's own deadline settles it; wait a little longer than that rather than giving up first.
  const run = await runToCompletion(database, runId, {
    placement: { backend },
    ...(deadline === null ? {} : { timeoutMs: Math.max(600_000, deadline + 60_000) }),
  });
  const pending = run.status === "waiting" ? await listPendingInterrupts(database, { runId: run.id }) : [];
  printResult(options, { run_id: run.id, status: run.status, output: run.output, error: run.error }, pending);
  return run.status === "succeeded" ? 0 : 1;
}

/** Prints a refused request (a user error) and returns its exit code: 2 for bad input, else 1. */
function refused(error: unknown): number {
  if (!isRathError(error) || !error.isUserError) throw error;
  process.stderr.write(`rath run: ${error.message}\n`);
  return error.code === "invalid_workflow" || error.code === "invalid_argument" || error.code === "invalid_config" || error.code === "not_found" ? 2 : 1;
}

/** `--fork-from`: forks the stored session at the chunk with the edits given, then runs the fork here. */
async function runFork(options: RunArguments, forkFrom: { sessionId: string; chunkIndex: number }): Promise<number> {
  let database: Database | undefined;
  try {
    const sandbox = await chooseSandboxBackend();
    if (!sandbox.confined && !options.json) process.stderr.write(`rath run: warning: ${sandbox.summary}\n`);
    database = await openDatabase(options.databasePath === undefined ? {} : { url: `file:${path.resolve(options.databasePath)}` });
    const agent = { ...(options.instructions === undefined ? {} : { instructions: options.instructions }), ...(options.model === undefined ? {} : { model: options.model }) };
    const forked = await forkFromChunk(database, QUEUE_ONLY_EXECUTOR, {
      ...forkFrom,
      edits: { ...(options.input === undefined ? {} : { input: options.input }), ...(Object.keys(agent).length === 0 ? {} : { agent }) },
    });
    if (!options.json) process.stderr.write(`rath run: forked run ${forked.fork.fromRunId} at ${forkFrom.sessionId}:${forkFrom.chunkIndex}; continues at ${forked.fork.continuesAt.join(", ") || "a merge"}\n`);
    return await executeAndPrint(database, options, forked.run.id, forked.run.deadlineAt, sandbox.backend);
  } catch (error) {
    return refused(error);
  } finally {
    await database?.close();
  }
}

/** The `rath run` entry point; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  let options: RunArguments | "help";
  let spec: unknown;
  try {
    options = parseArguments(args);
    if (options === "help") {
      process.stdout.write(USAGE);
      return 0;
    }
    if (options.specFile !== undefined) spec = await readSpec(options.specFile);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`rath run: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (options.forkFrom !== undefined) return runFork(options, options.forkFrom);
  const validation = validateWorkflowSpec(spec);
  if (!validation.ok) {
    const lines = validation.problems.map(describeProblem).join("\n");
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ run_id: null, status: "invalid", output: null, error: { code: "invalid_workflow", problems: validation.problems } })}\n`);
    }
    process.stderr.write(`rath run: ${options.specFile} has ${validation.problems.length} problem(s):\n${lines}\n`);
    return 2;
  }
  let database: Database | undefined;
  try {
    const sandbox = await chooseSandboxBackend();
    if (!sandbox.confined && !options.json) process.stderr.write(`rath run: warning: ${sandbox.summary}\n`);
    database = await openDatabase(options.databasePath === undefined ? {} : { url: `file:${path.resolve(options.databasePath)}` });
    const started = await startRun(database, QUEUE_ONLY_EXECUTOR, {
      spec,
      input: options.input ?? null,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    return await executeAndPrint(database, options, started.run.id, started.run.deadlineAt, sandbox.backend);
  } catch (error) {
    return refused(error);
  } finally {
    await database?.close();
  }
}
