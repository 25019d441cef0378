/**
 * `rath run SPEC.json [--input TEXT] [--timeout-ms MS] [--json] [--db PATH]`: validates a workflow spec, saves it as a revision in
 * the embedded database (default .rath/studio.db, or DATABASE_URL), starts a run and executes it in this process
 * until it is terminal or waits for a person, then prints the run id, status and output. Exit codes: 0 succeeded,
 * 1 any other final status, 2 bad usage or an invalid spec (its problems are printed with their node ids).
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

const USAGE = `Usage: rath run SPEC.json [--input TEXT] [--timeout-ms MS] [--json] [--db PATH]

Validates the workflow spec, saves it as a revision, runs it in this process and prints the result.

Options:
  --input TEXT   the run's input (the Input node's text; default: the node's defaultText)
  --timeout-ms MS the run ends timed_out when it is not finished MS ms after it started
                 (default: the spec's settings.runTimeoutMs, else no timeout)
  --json         print one JSON object {run_id, status, output, error}
  --db PATH      the SQLite database file (default: DATABASE_URL, RATH_DB_PATH or .rath/studio.db)
  -h, --help     show this help

Exit codes: 0 succeeded, 1 failed / waiting / cancelled / timed_out, 2 usage error or invalid spec.
Providers named "scripted" or "demo" (and, offline, any provider without an API key) use the demo provider.
`;

interface RunArguments {
  specFile: string;
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
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  if (positionals.length === 0) throw new UsageError("expected a spec file (SPEC.json)");
  if (positionals.length > 1) throw new UsageError(`expected one spec file, found another argument '${positionals[1]}'`);
  return {
    specFile: positionals[0] as string,
    input: values.input,
    timeoutMs: values["timeout-ms"] === undefined ? undefined : parseTimeout(values["timeout-ms"]),
    json: values.json,
    databasePath: values.db,
  };
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
    spec = await readSpec(options.specFile);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`rath run: ${error.message}\n\n${USAGE}`);
    return 2;
  }
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
    const deadline = started.run.deadlineAt === null ? null : Date.parse(started.run.deadlineAt) - Date.now();
    // The run's own deadline settles it; wait a little longer than that rather than giving up first.
    const run = await runToCompletion(database, started.run.id, {
      placement: { backend: sandbox.backend },
      ...(deadline === null ? {} : { timeoutMs: Math.max(600_000, deadline + 60_000) }),
    });
    const pending = run.status === "waiting" ? await listPendingInterrupts(database, { runId: run.id }) : [];
    printResult(options, { run_id: run.id, status: run.status, output: run.output, error: run.error }, pending);
    return run.status === "succeeded" ? 0 : 1;
  } catch (error) {
    if (!isRathError(error) || !error.isUserError) throw error;
    process.stderr.write(`rath run: ${error.message}\n`);
    return error.code === "invalid_workflow" || error.code === "invalid_argument" || error.code === "invalid_config" ? 2 : 1;
  } finally {
    await database?.close();
  }
}
