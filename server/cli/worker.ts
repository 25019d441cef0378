/**
 * `npm run worker [-- --concurrency N] [--lease-ms MS] [--poll-ms MS] [--worker-id ID]`: a worker process for
 * server mode. Opens DATABASE_URL (PostgreSQL; a SQLite file works too, shared with the studio and other worker
 * processes on the same machine: server/db/README.md), applies migrations, and claims and executes
 * queued runs until SIGINT/SIGTERM, when runs in progress go back to the queue before their next step. Any
 * number of these processes may run on any number of machines. Tools run on bwrap where available
 * (RATH_SANDBOX_BACKEND chooses; server/engine/sandbox-choice.ts).
 */
import { redactDatabaseUrl } from "../db/database-url";
import { openDatabase } from "../db/database";
import { chooseSandboxBackend, logSandboxChoice } from "../engine/sandbox-choice";
import { createWorker } from "../engine/worker";
import { observeExecutionOption } from "../services/otel-live-export";
import { parseWorkerArguments, WORKER_USAGE } from "./worker-arguments";

const parsed = parseWorkerArguments(process.argv.slice(2));
if (parsed === "help") {
  console.log(WORKER_USAGE);
  process.exit(0);
}
const options = parsed;
// Decided before anything else: a bad RATH_SANDBOX_BACKEND stops the worker here, with the reason.
const sandbox = await chooseSandboxBackend();
logSandboxChoice(sandbox);
const database = await openDatabase();
const where = database.location.provider === "postgresql" ? redactDatabaseUrl(database.location.connectionString) : database.location.filePath;
// With OTEL_EXPORTER_OTLP_ENDPOINT set, each run's spans go to that endpoint as its steps commit.
const worker = createWorker({ db: database, ...options, placement: { backend: sandbox.backend }, ...observeExecutionOption(database) });
worker.start();
console.log(`[rath worker ${worker.id}] ${options.concurrency} loop(s) on ${database.provider} ${where}`);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`[rath worker ${worker.id}] ${signal}: stopping after the current step`);
  await worker.stop();
  await database.close();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
