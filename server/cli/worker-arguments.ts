import { parseArgs } from "node:util";

/** Usage text of `npm run worker`. */
export const WORKER_USAGE = `Usage: npm run worker -- [--concurrency N] [--lease-ms MS] [--poll-ms MS] [--worker-id ID]

Claims and executes queued runs from DATABASE_URL (default: the embedded SQLite file .rath/studio.db).`;

/** What `npm run worker` was asked for. */
export interface WorkerArguments {
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  workerId?: string;
}

function positiveInteger(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number <= 0) {
    throw new Error(`--${flag} must be a positive integer; found '${value}'`);
  }
  return number;
}

/**
 * Parses the worker's arguments with `node:util` parseArgs: `--flag value` and `--flag=value` alike, a value
 * may itself contain `=` (`--worker-id=a=b` is `a=b`), unknown options and stray arguments are refused.
 * Returns "help" for -h/--help.
 */
export function parseWorkerArguments(args: readonly string[]): WorkerArguments | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: {
        help: { type: "boolean", short: "h", default: false },
        concurrency: { type: "string" },
        "lease-ms": { type: "string" },
        "poll-ms": { type: "string" },
        "worker-id": { type: "string" },
      },
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${WORKER_USAGE}`);
  }
  const { values } = parsed;
  if (values.help) return "help";
  return {
    concurrency: positiveInteger("concurrency", values.concurrency, 1),
    leaseMs: positiveInteger("lease-ms", values["lease-ms"], 30_000),
    pollMs: positiveInteger("poll-ms", values["poll-ms"], 500),
    ...(values["worker-id"] === undefined ? {} : { workerId: values["worker-id"] }),
  };
}
