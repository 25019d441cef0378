/**
 * Whether the Next.js server starts its in-process worker at start-up (embedded mode): yes on the SQLite
 * database, unless RATH_EMBEDDED_WORKER=0 (or RATH_IN_PROCESS_WORKER=0); no when DATABASE_URL points at
 * PostgreSQL (server mode: run `npm run worker` processes instead).
 */
import { resolveDatabaseLocation, type DatabaseEnvironment } from "../db/database-url";

/** The decision and why (logged at start-up). */
export interface EmbeddedWorkerDecision {
  start: boolean;
  reason: string;
}

const OFF = new Set(["0", "false", "off", "no"]);

/** Decides from the environment; see the module comment. */
export function embeddedWorkerDecision(environment: DatabaseEnvironment & Readonly<Record<string, string | undefined>>): EmbeddedWorkerDecision {
  for (const name of ["RATH_EMBEDDED_WORKER", "RATH_IN_PROCESS_WORKER"]) {
    const value = environment[name]?.trim().toLowerCase();
    if (value !== undefined && OFF.has(value)) return { start: false, reason: `${name}=${value}: no in-process worker; run \`npm run worker\`` };
  }
  const location = resolveDatabaseLocation(undefined, environment);
  if (location.provider === "postgresql") {
    return { start: false, reason: "DATABASE_URL is PostgreSQL (server mode): start workers with `npm run worker`" };
  }
  return { start: true, reason: `embedded mode: in-process worker on ${location.filePath}` };
}
