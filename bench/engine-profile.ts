/**
 * Profiles the engine bench's worker phase: `npx tsx bench/engine-profile.ts [sqlite|postgresql] [workers] [runs]
 * [--cpu-prof FILE] [--repeats N]`. Queues the bench's runs (input -> 10 agents -> output), then times only the
 * worker phase (as `measureEngineSteps` does) and prints ms per step; with `--cpu-prof` it writes a V8 CPU profile of
 * that phase (open it in Chrome's DevTools); with `--count` it prints the statements sent per step, by text. It
 * also prints the process's CPU time per step (its system part, its main thread's part, and how long the main thread
 * waited for a core: Linux schedstat), on PostgreSQL the CPU time of every `postgres`
 * process on this machine per step (Linux /proc: the server's side of the work), and the load average. Not part of
 * `npm run bench:engine`.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { loadavg } from "node:os";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { measureEngineSteps, temporaryPostgres, temporarySqlite } from "./engine-measures";

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
if (args.includes("--count")) {
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
  clientPrototype.query = function (this: unknown, ...values: unknown[]) {
    count(values[0], 0);
    return query.apply(this, values);
  };
}

let cpuMicroseconds = 0;
let systemMicroseconds = 0;
let mainThreadNanoseconds = 0;
let mainThreadWaitNanoseconds = 0;

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

async function sample(profile: boolean): Promise<number> {
  const { database, dispose } = provider === "sqlite" ? await temporarySqlite() : await temporaryPostgres(postgresUrl, workers > 1 ? 10 : 4);
  const session = profile ? new Session() : null;
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
        const [onCpu, waiting] = mainThreadSchedstat();
        mainThreadNanoseconds = -onCpu;
        mainThreadWaitNanoseconds = -waiting;
        const cpu = process.cpuUsage();
        cpuMicroseconds = -(cpu.user + cpu.system);
        systemMicroseconds = -cpu.system;
      },
      onWorkerEnd: async () => {
        const cpu = process.cpuUsage();
        const [onCpu, waiting] = mainThreadSchedstat();
        mainThreadNanoseconds += onCpu;
        mainThreadWaitNanoseconds += waiting;
        cpuMicroseconds += cpu.user + cpu.system;
        systemMicroseconds += cpu.system;
        if (provider !== "sqlite") postgresTicks += postgresCpuTicks();
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
for (let repeat = 0; repeat < repeats; repeat += 1) {
  values.push(await sample(profileFile !== undefined && repeat === repeats - 1));
  cpuPerStep.push((cpuMicroseconds / 1000 / (runs * 12)).toFixed(3));
  systemPerStep.push((systemMicroseconds / 1000 / (runs * 12)).toFixed(3));
  mainThreadPerStep.push((mainThreadNanoseconds / 1e6 / (runs * 12)).toFixed(3));
  mainThreadWaitPerStep.push((mainThreadWaitNanoseconds / 1e6 / (runs * 12)).toFixed(3));
  postgresPerStep.push(((postgresTicks * 10) / (runs * 12)).toFixed(2));
}
const perStep = values.map((stepsPerSecond) => (1000 / stepsPerSecond).toFixed(3));
console.log(`${provider}, ${workers} worker(s), ${runs} runs x 12 steps: steps/s ${values.map((value) => value.toFixed(0)).join(" / ")}; ms per step ${perStep.join(" / ")}; node CPU ms per step ${cpuPerStep.join(" / ")} (of it system ${systemPerStep.join(" / ")}; main thread ${mainThreadPerStep.join(" / ")}, main thread waiting for a core ${mainThreadWaitPerStep.join(" / ")})${provider === "sqlite" ? "" : `; CPU of all postgres processes ms per step ${postgresPerStep.join(" / ")}`}; load ${loadavg()[0]?.toFixed(2)}`);
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
