/**
 * The after-commit wake-ups of one pool are batched: the first goes out at once, those noted while a statement is
 * in flight or within WAKE_UP_INTERVAL_MS of the last one go out together in the next statement, each run with its
 * latest seq. A fake pool records the statements (the PostgreSQL round trip is covered by run-event-signal.test.ts).
 */
import type { Pool as PostgresPool } from "pg";
import { expect, it } from "vitest";
import { notifyRunEventsAfterCommit } from "./run-event-notifier";
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
