/**
 * Profiles the engine bench's worker phase: `npx tsx bench/engine-profile.ts [sqlite|postgresql] [workers] [runs]
 * [--cpu-prof FILE] [--repeats N] [--count] [--backends] [--statement-cpu] [--threads] [--pool-connects]
 * [--drop-session-fks]`. Queues the bench's runs (input -> 10 agents -> output), then times only the worker phase
 * (as `measureEngineSteps` does) and prints ms per step; with `--cpu-prof` it writes a V8 CPU profile of that phase
 * (open it in Chrome's DevTools); with `--count` it prints the statements sent per step, by text. It also prints the
 * process's CPU time per step (its system part, its main thread's part, and how long the main thread waited for a
 * core: Linux schedstat), on PostgreSQL the CPU time of every `postgres` process on this machine per step (Linux
 * /proc: the server's side of the work), and the load average. PostgreSQL diagnosis (Linux /proc): `--backends` the
 * CPU and minor page faults of each server process of the bench database during the phase (those started in it pay
 * PostgreSQL's start-up and catalog warm-up); `--statement-cpu` the server CPU of each statement by its ordinal on
 * its connection (1st, 2nd, ... 8th and later: warm-up, custom then generic plans); `--pool-connects` where the pool
 * opens a connection during the phase; `--drop-session-fks` an experiment that drops the step path's three foreign
 * keys on the fresh database. `--threads`: node's CPU per thread. On SQLite it also prints how often and how long the
 * step commits waited for the checkpoint thread's WAL restarts (`Atomics.wait` on its gate: no CPU, but a V8 CPU
 * profile shows that wait as self time of `retryWhileSqliteBusy`'s attempt). Not part of `npm run bench:engine`.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { loadavg } from "node:os";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { measureEngineSteps, temporaryPostgres, temporarySqlite } from "./engine-measures";
import { postgresPoolOf, sqliteCheckpointerOf } from "../server/db/database";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const positional = args.filter((arg, index) => !arg.startsWith("--") && !(args[index - 1] ?? "").startsWith("--"));
const provider = positional[0] ?? "sqlite";
const workers = Number(positional[1] ?? 1);
const runs = Number(positional[2] ?? 20);
const repeats = Number(option("--repeats") ?? 3);
const profileFile = option("--cpu-prof");
const postgresUrl = process.env.RATH_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** Statements run during the counted worker phase, by their first 90 characters. */
const counted = new Map<string, { times: number; ms: number }>();
let counting = false;
function count(sql: unknown, ms: number): void {
  if (!counting) return;
  const key = String(typeof sql === "object" && sql !== null ? (sql as { text?: unknown }).text : sql).replace(/\s+/g, " ").trim().slice(0, 90);
  const entry = counted.get(key) ?? { times: 0, ms: 0 };
  entry.times += 1;
  entry.ms += ms;
  counted.set(key, entry);
  if (key === "COMMIT") commitTimes.push(ms);
}
const commitTimes: number[] = [];
if (args.includes("--count") || args.includes("--statement-cpu")) {
  const probe = new BetterSqlite3(":memory:");
  const statementPrototype = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<string, (...values: unknown[]) => unknown>;
  probe.close();
  for (const method of ["run", "all", "get", "iterate"]) {
    const original = statementPrototype[method] as (...values: unknown[]) => unknown;
    statementPrototype[method] = function (this: { source: string }, ...values: unknown[]) {
      const started = performance.now();
      try {
        return original.apply(this, values);
      } finally {
        count(this.source, performance.now() - started);
      }
    };
  }
  const clientPrototype = pg.Client.prototype as unknown as { query: (...values: unknown[]) => unknown };
  const query = clientPrototype.query;
  clientPrototype.query = function (this: { processID?: number | null }, ...values: unknown[]) {
    count(values[0], 0);
    if (!args.includes("--statement-cpu") || !counting || typeof this.processID !== "number") return query.apply(this, values);
    // The backend is idle when a statement is sent, and idle again when its result is back: the difference of
    // its CPU time between the two is the statement's (the first one also shows the backend's start-up).
    const backend = this.processID;
    const before = backendCpuNs(backend);
    const kind = statementKey(values[0]);
    const done = (): void => recordStatementCpu(backend, kind, before, backendCpuNs(backend));
    const last = values.length - 1;
    if (typeof values[last] === "function") {
      const callback = values[last] as (...results: unknown[]) => unknown;
      values[last] = (...results: unknown[]) => {
        done();
        return callback(...results);
      };
      return query.apply(this, values);
    }
    const result = query.apply(this, values);
    if (result instanceof Promise) return result.finally(done);
    return result;
  };
}

function statementKey(sql: unknown): string {
  return String(typeof sql === "object" && sql !== null ? (sql as { text?: unknown }).text : sql).replace(/\s+/g, " ").trim().slice(0, 60);
}

function backendCpuNs(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]);
  } catch {
    return 0;
  }
}

/** `--statement-cpu`: per backend, statements run so far; per statement text and ordinal on its backend, CPU ns. */
const statementsByBackend = new Map<number, Map<string, number>>();
const backendStartupNs = new Map<number, number>();
const statementCpu = new Map<string, { byOrdinal: number[][]; }>();
function recordStatementCpu(backend: number, kind: string, before: number, after: number): void {
  let seen = statementsByBackend.get(backend);
  if (seen === undefined) {
    seen = new Map();
    statementsByBackend.set(backend, seen);
    backendStartupNs.set(backend, before);
  }
  const ordinal = seen.get(kind) ?? 0;
  seen.set(kind, ordinal + 1);
  let entry = statementCpu.get(kind);
  if (entry === undefined) {
    entry = { byOrdinal: [] };
    statementCpu.set(kind, entry);
  }
  const slot = Math.min(ordinal, 7);
  (entry.byOrdinal[slot] ??= []).push(after - before);
}

let cpuMicroseconds = 0;
let systemMicroseconds = 0;
let mainThreadNanoseconds = 0;
let mainThreadWaitNanoseconds = 0;
/** The step commits' waits for the checkpoint thread's WAL restarts (SQLite; Atomics.wait, so not CPU). */
let restartWaits = { count: 0, ms: 0 };

/** This process's main thread: ns on a CPU and ns runnable but waiting for one (Linux schedstat), or zeros. */
function mainThreadSchedstat(): [number, number] {
  try {
    const [onCpu, waiting] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ");
    return [Number(onCpu), Number(waiting)];
  } catch {
    return [0, 0];
  }
}
let postgresTicks = 0;

/** `--threads`: this process's CPU ns per thread name (Linux /proc/self/task), e.g. V8's compiler and GC workers. */
function threadCpu(): Map<string, number> {
  const result = new Map<string, number>();
  for (const task of readdirSync("/proc/self/task")) {
    try {
      const name = readFileSync(`/proc/self/task/${task}/comm`, "utf8").trim() + (task === String(process.pid) ? " (main)" : "");
      const ns = Number(readFileSync(`/proc/self/task/${task}/schedstat`, "utf8").split(" ")[0]);
      result.set(name, (result.get(name) ?? 0) + ns);
    } catch {
      // the thread ended meanwhile
    }
  }
  return result;
}
let threadsAtStart = new Map<string, number>();
const threadLines: string[] = [];

/**
 * `--backends`: CPU (Linux schedstat, ns) of each server process of the bench database (`postgres: ... <db> ...`),
 * read at the worker phase's start and end: backends that existed before it (the queueing's) and those the pool
 * started during it (their whole life is in the phase: fork, authentication, catalog caches, PREPAREs).
 */
function databaseBackends(databaseName: string): Map<number, number> {
  const result = new Map<number, number>();
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (!command.startsWith("postgres:") || !command.includes(` ${databaseName} `)) continue;
      result.set(Number(pid), Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]));
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      backendFaults.set(Number(pid), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[7]));
    } catch {
      // the process ended meanwhile
    }
  }
  return result;
}
let backendsAtStart = new Map<number, number>();
/** Minor page faults of each backend at its last reading (/proc/<pid>/stat). */
const backendFaults = new Map<number, number>();
let faultsAtStart = new Map<number, number>();
const backendLines: string[] = [];

/** CPU ticks (user + system, 1/100 s) of every process named postgres on this machine (Linux /proc), or 0. */
function postgresCpuTicks(): number {
  let ticks = 0;
  try {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const close = stat.lastIndexOf(")");
        if (!stat.slice(stat.indexOf("(") + 1, close).startsWith("postgres")) continue;
        const fields = stat.slice(close + 2).split(" ");
        ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // the process ended meanwhile
      }
    }
  } catch {
    return 0;
  }
  return ticks;
}

function databaseNameOf(database: { location: { provider: string } }): string {
  const location = database.location as { connectionString?: string };
  return new URL(location.connectionString ?? "postgresql://x/none").pathname.slice(1);
}

async function sample(profile: boolean): Promise<number> {
  const { database, dispose } = provider === "sqlite" ? await temporarySqlite() : await temporaryPostgres(postgresUrl, workers > 1 ? 10 : 4);
  const session = profile ? new Session() : null;
  if (args.includes("--drop-session-fks") && provider !== "sqlite") {
    // Experiment only: the step path's three remaining foreign keys dropped on the fresh database.
    await postgresPoolOf(database)?.query(`ALTER TABLE "sessions" DROP CONSTRAINT "sessions_run_id_fkey"; ALTER TABLE "session_parents" DROP CONSTRAINT "session_parents_session_id_fkey"; ALTER TABLE "chunks" DROP CONSTRAINT "chunks_session_id_fkey"`);
  }
  const pool = provider === "sqlite" ? null : postgresPoolOf(database);
  if (args.includes("--pool-connects") && pool !== null) {
    // Diagnosis: where the pool opens a new connection (a checkout that finds no idle one).
    const connect = pool.connect.bind(pool) as (...values: unknown[]) => unknown;
    (pool as unknown as { connect: (...values: unknown[]) => unknown }).connect = (...values: unknown[]) => {
      if (counting && pool.idleCount === 0) {
        const stack = (new Error().stack ?? "").split("\n").slice(2, 7).map((line) => line.trim().replace(/\(.*\/(server|bench|node_modules)\//, "($1/")).join(" < ");
        console.log(`new connection #${pool.totalCount + 1} at ${stack}`);
      }
      return connect(...values);
    };
  }
  try {
    if (session !== null) {
      session.connect();
      await session.post("Profiler.enable");
      await session.post("Profiler.setSamplingInterval", { interval: 100 });
    }
    return await measureEngineSteps(database, { runs, agents: 10 }, workers, {
      onWorkerStart: async () => {
        if (session !== null) await session.post("Profiler.start");
        counted.clear();
        commitTimes.length = 0;
        counting = true;
        // The /proc scan is outside node's measured CPU (and PostgreSQL is not scanned for SQLite).
        postgresTicks = provider === "sqlite" ? 0 : -postgresCpuTicks();
        if (args.includes("--backends") && provider !== "sqlite") {
          backendsAtStart = databaseBackends(databaseNameOf(database));
          faultsAtStart = new Map(backendFaults);
        }
        if (args.includes("--threads")) threadsAtStart = threadCpu();
        const [onCpu, waiting] = mainThreadSchedstat();
        mainThreadNanoseconds = -onCpu;
        mainThreadWaitNanoseconds = -waiting;
        const cpu = process.cpuUsage();
        cpuMicroseconds = -(cpu.user + cpu.system);
        systemMicroseconds = -cpu.system;
        const waits = sqliteCheckpointerOf(database)?.writerWaits() ?? { count: 0, ms: 0 };
        restartWaits = { count: -waits.count, ms: -waits.ms };
      },
      onWorkerEnd: async () => {
        const cpu = process.cpuUsage();
        const [onCpu, waiting] = mainThreadSchedstat();
        if (args.includes("--threads")) {
          const threads = [...threadCpu()].map(([name, ns]) => [name, ns - (threadsAtStart.get(name) ?? 0)] as const).filter(([, ns]) => ns > 0);
          threadLines.push(`threads' CPU ms per step: ${threads.map(([name, ns]) => `${name} ${(ns / 1e6 / (runs * 12)).toFixed(3)}`).join(", ")}`);
        }
        mainThreadNanoseconds += onCpu;
        mainThreadWaitNanoseconds += waiting;
        cpuMicroseconds += cpu.user + cpu.system;
        systemMicroseconds += cpu.system;
        if (provider !== "sqlite") postgresTicks += postgresCpuTicks();
        if (args.includes("--backends") && provider !== "sqlite") {
          const atEnd = databaseBackends(databaseNameOf(database));
          const old = [...atEnd].filter(([pid]) => backendsAtStart.has(pid)).map(([pid, ns]) => ns - (backendsAtStart.get(pid) ?? 0));
          const started = [...atEnd].filter(([pid]) => !backendsAtStart.has(pid)).map(([, ns]) => ns);
          const ms = (values: number[]): string => values.map((ns) => (ns / 1e6).toFixed(1)).join(" ");
          const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
          backendLines.push(
            `backends: ${old.length} before the phase (ms in it: ${ms(old)}), ${started.length} started in it (ms: ${ms(started)}); ` +
              `bench database's backends ${(sum([...old, ...started]) / 1e6 / (runs * 12)).toFixed(3)} ms per step, ` +
              `${([...atEnd.keys()].reduce((total, pid) => total + (backendFaults.get(pid) ?? 0) - (faultsAtStart.get(pid) ?? 0), 0) / (runs * 12)).toFixed(1)} minor page faults per step`,
          );
        }
        const waits = sqliteCheckpointerOf(database)?.writerWaits() ?? { count: 0, ms: 0 };
        restartWaits = { count: restartWaits.count + waits.count, ms: restartWaits.ms + waits.ms };
        counting = false;
        if (session === null) return;
        const { profile: written } = await session.post("Profiler.stop");
        writeFileSync(profileFile as string, JSON.stringify(written));
      },
    });
  } finally {
    session?.disconnect();
    await dispose();
  }
}

await sample(false);
const values: number[] = [];
const cpuPerStep: string[] = [];
const systemPerStep: string[] = [];
const mainThreadPerStep: string[] = [];
const mainThreadWaitPerStep: string[] = [];
const postgresPerStep: string[] = [];
const restartWaitLines: string[] = [];
for (let repeat = 0; repeat < repeats; repeat += 1) {
  values.push(await sample(profileFile !== undefined && repeat === repeats - 1));
  restartWaitLines.push(`${restartWaits.count} waits, ${restartWaits.ms.toFixed(1)} ms (${((restartWaits.ms / 1000) * (values.at(-1) ?? 0) / (runs * 12) * 100).toFixed(1)} % of the phase)`);
  cpuPerStep.push((cpuMicroseconds / 1000 / (runs * 12)).toFixed(3));
  systemPerStep.push((systemMicroseconds / 1000 / (runs * 12)).toFixed(3));
  mainThreadPerStep.push((mainThreadNanoseconds / 1e6 / (runs * 12)).toFixed(3));
  mainThreadWaitPerStep.push((mainThreadWaitNanoseconds / 1e6 / (runs * 12)).toFixed(3));
  postgresPerStep.push(((postgresTicks * 10) / (runs * 12)).toFixed(2));
}
const perStep = values.map((stepsPerSecond) => (1000 / stepsPerSecond).toFixed(3));
console.log(`${provider}, ${workers} worker(s), ${runs} runs x 12 steps: steps/s ${values.map((value) => value.toFixed(0)).join(" / ")}; ms per step ${perStep.join(" / ")}; node CPU ms per step ${cpuPerStep.join(" / ")} (of it system ${systemPerStep.join(" / ")}; main thread ${mainThreadPerStep.join(" / ")}, main thread waiting for a core ${mainThreadWaitPerStep.join(" / ")})${provider === "sqlite" ? "" : `; CPU of all postgres processes ms per step ${postgresPerStep.join(" / ")}`}; load ${loadavg()[0]?.toFixed(2)}`);
if (provider === "sqlite") console.log(`step commits waiting for a WAL restart (the checkpoint thread's gate), per sample: ${restartWaitLines.join(" / ")}`);
for (const line of backendLines.slice(1)) console.log(line);
for (const line of threadLines.slice(1)) console.log(line);
if (args.includes("--statement-cpu")) {
  // Over every sample after the first: mean CPU ms of a statement by its ordinal on its backend (1st .. 7th, 8th and later).
  console.log(`backends' CPU before their first statement in the phase (ms): ${[...backendStartupNs.values()].map((ns) => (ns / 1e6).toFixed(1)).join(" ")}`);
  for (const [kind, { byOrdinal }] of statementCpu) {
    const cells = byOrdinal.map((values) => `${(values.reduce((a, b) => a + b, 0) / values.length / 1e6).toFixed(2)}x${values.length}`);
    console.log(`${cells.join(" ").padEnd(90)} ${kind}`);
  }
}
if (args.includes("--count")) {
  const total = [...counted.values()].reduce((sum, value) => sum + value.times, 0);
  console.log(`statements in the last sample: ${total} (${(total / (runs * 12)).toFixed(2)} per step); times, ms in all (SQLite only), text`);
  const sorted = [...commitTimes].sort((a, b) => a - b);
  const at = (fraction: number): string => (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0).toFixed(3);
  if (sorted.length > 0) {
    const slow = sorted.filter((ms) => ms > 2);
    console.log(`SQLite COMMIT ms: median ${at(0.5)}, p90 ${at(0.9)}, p99 ${at(0.99)}, max ${at(1)}; ${slow.length} over 2 ms took ${slow.reduce((a, b) => a + b, 0).toFixed(1)} ms of ${sorted.reduce((a, b) => a + b, 0).toFixed(1)}`);
  }
  for (const [sql, { times, ms }] of [...counted].sort((a, b) => b[1].times - a[1].times)) console.log(`${String(times).padStart(6)} ${ms.toFixed(1).padStart(8)}  ${sql}`);
}
