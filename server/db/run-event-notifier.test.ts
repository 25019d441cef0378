/**
 * The after-commit wake-ups of one pool are batched: the first goes out at once, those noted while a statement is
 * in flight or within WAKE_UP_INTERVAL_MS of the last one go out together in the next statement, each run with its
 * latest seq; a write that finds one due sends it on its own connection (writeThenWakeUp). A fake pool with fake
 * connections records the statements (the PostgreSQL round trip is covered by run-event-signal.test.ts).
 */
import type { Pool as PostgresPool, PoolClient } from "pg";
import { afterEach, expect, it, vi } from "vitest";
import { WAKE_UP_INTERVAL_MS, writeThenWakeUp, type WriteOutcome } from "./run-event-notifier";
import { RUN_EVENTS_CHANNEL } from "./run-event-signal";

/**
 * A pool whose connections record their statements (`on`: connection number and text or wake-up values) and their
 * release; `pool.query` (a statement on a connection of its own) is recorded in `fromPool`.
 */
function connectionPool(options: { failWakeUps?: boolean; holdWakeUps?: boolean } = {}): {
  pool: PostgresPool;
  on: Array<[number, unknown]>;
  released: Array<[number, unknown]>;
  fromPool: unknown[][];
  /** Answers the oldest wake-up held in flight (`holdWakeUps`). */
  answer: () => void;
} {
  const on: Array<[number, unknown]> = [];
  const released: Array<[number, unknown]> = [];
  const fromPool: unknown[][] = [];
  const held: Array<() => void> = [];
  let connections = 0;
  const pool = {
    connect: async () => {
      const number = (connections += 1);
      return {
        query: async (config: string | { values: unknown[] }) => {
          on.push([number, typeof config === "string" ? config : config.values]);
          if (typeof config !== "string" && options.failWakeUps === true) throw new Error("connection lost");
          if (typeof config !== "string" && options.holdWakeUps === true) await new Promise<void>((resolve) => held.push(resolve));
          return { rows: [] };
        },
        release: (error?: unknown) => released.push([number, error]),
      } as unknown as PoolClient;
    },
    query: async (config: { values: unknown[] }) => {
      fromPool.push(config.values);
      return { rows: [] };
    },
  } as unknown as PostgresPool;
  return { pool, on, released, fromPool, answer: () => held.shift()?.() };
}

/** A write of one statement whose run's last seq is `lastSeq`. */
function commit(runId: string, lastSeq: number, hold?: Promise<void>): (client: PoolClient) => Promise<WriteOutcome<number>> {
  return async (client) => {
    await client.query(`commit ${runId}`);
    await hold;
    return { result: lastSeq, wakeUp: { runId, lastSeq } };
  };
}

afterEach(() => {
  vi.useRealTimers();
});

/** Fake timers and clock (performance.now included), so "within the interval" does not depend on the machine's speed. */
function fakeClock(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
}

it("sends a due wake-up on the writer's connection before releasing it, and the ones noted within the interval with the first write after it", async () => {
  fakeClock();
  const { pool, on, released, fromPool } = connectionPool();
  expect(await writeThenWakeUp(pool, commit("run_a", 3))).toBe(3);
  expect(on).toEqual([
    [1, "commit run_a"],
    [1, [RUN_EVENTS_CHANNEL, ["run_a:3"]]],
  ]);
  expect(released).toEqual([[1, undefined]]);
  // Within the interval: noted only.
  await writeThenWakeUp(pool, commit("run_b", 4));
  await writeThenWakeUp(pool, commit("run_a", 5));
  expect(on.slice(2)).toEqual([
    [2, "commit run_b"],
    [3, "commit run_a"],
  ]);
  await vi.advanceTimersByTimeAsync(WAKE_UP_INTERVAL_MS);
  await writeThenWakeUp(pool, commit("run_c", 1));
  expect(on.slice(4)).toEqual([
    [4, "commit run_c"],
    [4, [RUN_EVENTS_CHANNEL, ["run_b:4", "run_a:5", "run_c:1"]]],
  ]);
  await vi.advanceTimersByTimeAsync(4 * WAKE_UP_INTERVAL_MS);
  expect(fromPool).toEqual([]);
  expect(released.map(([connection]) => connection)).toEqual([1, 2, 3, 4]);
});

it("leaves waiting wake-ups to a write that holds a connection, and sends them from the pool once none does", async () => {
  fakeClock();
  const { pool, on, fromPool } = connectionPool();
  await writeThenWakeUp(pool, commit("run_a", 1));
  await writeThenWakeUp(pool, commit("run_a", 2));
  let finish: () => void = () => undefined;
  const held = writeThenWakeUp(pool, commit("run_b", 7, new Promise<void>((resolve) => (finish = resolve))));
  // Past the fallback timer's first turn: the held write is still in flight, so nothing goes out from the pool.
  await vi.advanceTimersByTimeAsync(3 * WAKE_UP_INTERVAL_MS);
  expect(fromPool).toEqual([]);
  finish();
  await held;
  expect(on.at(-1)).toEqual([3, [RUN_EVENTS_CHANNEL, ["run_a:2", "run_b:7"]]]);
  // Noted within the interval, and no write after it: from the pool.
  await writeThenWakeUp(pool, commit("run_c", 9));
  expect(fromPool).toEqual([]);
  await vi.advanceTimersByTimeAsync(2 * WAKE_UP_INTERVAL_MS);
  expect(fromPool).toEqual([[RUN_EVENTS_CHANNEL, ["run_c:9"]]]);
});

it("drops the connection of a write that failed or of a wake-up that failed, and still returns the committed write's result", async () => {
  const failing = connectionPool();
  const refused = writeThenWakeUp(failing.pool, async (client) => {
    await client.query("commit run_a");
    throw new Error("duplicate key");
  });
  await expect(refused).rejects.toThrow("duplicate key");
  expect(failing.on).toEqual([[1, "commit run_a"]]);
  expect((failing.released[0]?.[1] as Error).message).toBe("duplicate key");

  const lost = connectionPool({ failWakeUps: true });
  expect(await writeThenWakeUp(lost.pool, commit("run_a", 2))).toBe(2);
  expect(lost.on).toEqual([
    [1, "commit run_a"],
    [1, [RUN_EVENTS_CHANNEL, ["run_a:2"]]],
  ]);
  expect((lost.released[0]?.[1] as Error).message).toBe("connection lost");
});

it("notes the wake-ups of writes that end while one is in flight and sends them together after it, latest seq per run", async () => {
  fakeClock();
  const { pool, on, released, fromPool, answer } = connectionPool({ holdWakeUps: true });
  const first = writeThenWakeUp(pool, commit("run_a", 3));
  await vi.advanceTimersByTimeAsync(0);
  expect(on).toEqual([
    [1, "commit run_a"],
    [1, [RUN_EVENTS_CHANNEL, ["run_a:3"]]],
  ]);
  // Past the interval, but the first wake-up is still in flight: these are noted only.
  await vi.advanceTimersByTimeAsync(WAKE_UP_INTERVAL_MS);
  for (const [runId, lastSeq] of [["run_b", 7], ["run_a", 5], ["run_b", 6]] as const) {
    expect(await writeThenWakeUp(pool, commit(runId, lastSeq))).toBe(lastSeq);
  }
  expect(on.slice(2).map(([, statement]) => statement)).toEqual(["commit run_b", "commit run_a", "commit run_b"]);
  expect(released.map(([connection]) => connection)).toEqual([2, 3, 4]);
  answer();
  expect(await first).toBe(3);
  await vi.advanceTimersByTimeAsync(2 * WAKE_UP_INTERVAL_MS);
  expect(fromPool).toEqual([[RUN_EVENTS_CHANNEL, ["run_b:7", "run_a:5"]]]);
});

it("still sends the wake-ups noted after one that failed", async () => {
  fakeClock();
  const { pool, on, fromPool } = connectionPool({ failWakeUps: true });
  expect(await writeThenWakeUp(pool, commit("run_a", 1))).toBe(1);
  expect(await writeThenWakeUp(pool, commit("run_b", 2))).toBe(2);
  expect(on).toEqual([
    [1, "commit run_a"],
    [1, [RUN_EVENTS_CHANNEL, ["run_a:1"]]],
    [2, "commit run_b"],
  ]);
  await vi.advanceTimersByTimeAsync(2 * WAKE_UP_INTERVAL_MS);
  expect(fromPool).toEqual([[RUN_EVENTS_CHANNEL, ["run_b:2"]]]);
});
