/**
 * The after-commit wake-ups of one pool are batched: the first goes out at once, those noted while a statement is
 * in flight or within WAKE_UP_INTERVAL_MS of the last one go out together in the next statement, each run with its
 * latest seq; a write that finds one due sends it on its own connection (writeThenWakeUp). A fake pool and fake
 * connections record the statements (the PostgreSQL round trip is covered by run-event-signal.test.ts).
 */
import type { Pool as PostgresPool, PoolClient } from "pg";
import { afterEach, expect, it, vi } from "vitest";
import { notifyRunEventsAfterCommit, WAKE_UP_INTERVAL_MS, writeThenWakeUp, type WriteOutcome } from "./run-event-notifier";
import { RUN_EVENTS_CHANNEL } from "./run-event-signal";

/** A pool whose query records its values and answers when `answer` is called (so a statement stays in flight). */
function recordingPool(): { pool: PostgresPool; sent: unknown[][]; answer: () => void; sentCount: (count: number) => Promise<void> } {
  const sent: unknown[][] = [];
  const waiting: Array<() => void> = [];
  const watchers: Array<() => void> = [];
  const pool = {
    query: (config: { values: unknown[] }) => {
      sent.push(config.values);
      for (const watcher of watchers.splice(0)) watcher();
      return new Promise<{ rows: unknown[] }>((resolve) => waiting.push(() => resolve({ rows: [] })));
    },
  } as unknown as PostgresPool;
  const sentCount = async (count: number): Promise<void> => {
    while (sent.length < count) await new Promise<void>((resolve) => watchers.push(resolve));
  };
  return { pool, sent, answer: () => waiting.shift()?.(), sentCount };
}

it("sends the first wake-up at once and the ones noted meanwhile in one later statement, latest seq per run", async () => {
  const { pool, sent, answer, sentCount } = recordingPool();
  notifyRunEventsAfterCommit(pool, "run_a", 3);
  expect(sent).toEqual([[RUN_EVENTS_CHANNEL, ["run_a:3"]]]);
  notifyRunEventsAfterCommit(pool, "run_b", 7);
  notifyRunEventsAfterCommit(pool, "run_a", 5);
  notifyRunEventsAfterCommit(pool, "run_b", 6);
  // Nothing more while the first statement is in flight.
  expect(sent).toHaveLength(1);
  answer();
  await sentCount(2);
  expect(sent[1]).toEqual([RUN_EVENTS_CHANNEL, ["run_b:7", "run_a:5"]]);
  answer();
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(sent).toHaveLength(2);
});

it("sends a wake-up that comes after a quiet interval at once", async () => {
  const { pool, sent, answer } = recordingPool();
  notifyRunEventsAfterCommit(pool, "run_a", 1);
  answer();
  await new Promise((resolve) => setTimeout(resolve, 20));
  notifyRunEventsAfterCommit(pool, "run_a", 2);
  expect(sent).toEqual([
    [RUN_EVENTS_CHANNEL, ["run_a:1"]],
    [RUN_EVENTS_CHANNEL, ["run_a:2"]],
  ]);
  answer();
});

it("still sends the wake-ups noted meanwhile when a statement fails", async () => {
  const sent: unknown[][] = [];
  const pool = {
    query: async (config: { values: unknown[] }) => {
      sent.push(config.values);
      if (sent.length === 1) throw new Error("connection lost");
      return { rows: [] };
    },
  } as unknown as PostgresPool;
  notifyRunEventsAfterCommit(pool, "run_a", 1);
  notifyRunEventsAfterCommit(pool, "run_b", 2);
  await expect.poll(() => sent.length).toBe(2);
  expect(sent[1]).toEqual([RUN_EVENTS_CHANNEL, ["run_b:2"]]);
});

/**
 * A pool whose connections record their statements (`on`: connection number and text or wake-up values) and their
 * release; `pool.query` (a statement on a connection of its own) is recorded in `fromPool`.
 */
function connectionPool(options: { failWakeUps?: boolean } = {}): {
  pool: PostgresPool;
  on: Array<[number, unknown]>;
  released: Array<[number, unknown]>;
  fromPool: unknown[][];
} {
  const on: Array<[number, unknown]> = [];
  const released: Array<[number, unknown]> = [];
  const fromPool: unknown[][] = [];
  let connections = 0;
  const pool = {
    connect: async () => {
      const number = (connections += 1);
      return {
        query: async (config: string | { values: unknown[] }) => {
          on.push([number, typeof config === "string" ? config : config.values]);
          if (typeof config !== "string" && options.failWakeUps === true) throw new Error("connection lost");
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
  return { pool, on, released, fromPool };
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
