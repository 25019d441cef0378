/**
 * Wake-ups for live readers: the events a transaction appends are announced after it commits (in-process bus on
 * SQLite, LISTEN/NOTIFY on PostgreSQL, heard from another connection pool), and never for a rolled-back attempt.
 */
import { expect, it } from "vitest";
import { databaseKey, onRunEvents } from "./run-event-signal";
import { openListenerCount, subscribeRunEvents } from "./run-event-listener";
import { appendRunEvents, eventsPage } from "./run-events";
import { rawStatements } from "./raw-sql";
import { seedRun } from "./testing/fixtures";
import { describeEachDatabase } from "./testing/test-databases";

describeEachDatabase("run event wake-ups", (open, provider) => {
  it("announces committed events only, after the commit, to a reader on another handle", async () => {
    const { database, openAnother } = await open();
    const reader = await openAnother();
    const run = await seedRun(database);
    const heard: number[] = [];
    let visibleAtWake: number[] = [];
    const subscription = subscribeRunEvents(reader.location, run.id, () => undefined);
    const off = onRunEvents(databaseKey(reader.location), run.id, (lastSeq) => {
      heard.push(lastSeq);
      void eventsPage(reader, run.id).then((events) => {
        visibleAtWake = events.map((event) => event.seq);
      });
    });
    try {
      await expect.poll(() => subscription.live()).toBe(true);
      if (provider === "postgresql") expect(openListenerCount()).toBe(1);
      const before = run.lastEventSeq;
      // A rolled-back attempt that appended five events is never announced...
      await expect(
        database.transaction(async (transaction) => {
          await appendRunEvents(rawStatements(database, transaction), run.id, Array.from({ length: 5 }, () => ({ type: "test.discarded" })));
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      // ...the committed one (one event) is, and its event is readable when the wake-up arrives.
      await database.transaction((transaction) => appendRunEvents(rawStatements(database, transaction), run.id, [{ type: "test.kept" }]));
      await expect.poll(() => heard).toEqual([before + 1]);
      await expect.poll(() => visibleAtWake).toContain(before + 1);
    } finally {
      off();
      subscription.unsubscribe();
    }
    expect(openListenerCount()).toBe(0);
  });
});
