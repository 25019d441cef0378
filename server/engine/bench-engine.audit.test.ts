/**
 * The engine benchmark's measuring function (bench/engine-measures.ts) at tiny size on both providers, with 1 and
 * 4 claim loops: bench/engine.test.ts exercises SQLite only, while `npm run bench:engine` also reports PostgreSQL
 * with 1 and 4 workers. The function itself checks that every step was committed exactly once.
 */
import { expect, it } from "vitest";
import { measureEngineSteps } from "../../bench/engine-measures";
import { describeEachDatabase } from "../db/testing/test-databases";

describeEachDatabase("engine bench measure (tiny)", (open) => {
  it.each([1, 4])("commits every step with %i worker loop(s) and reports a positive rate", async (workers) => {
    const { database } = await open();
    const rate = await measureEngineSteps(database, { runs: 4, agents: 2 }, workers);
    expect(Number.isFinite(rate) && rate > 0).toBe(true);
    expect(await database.client.checkpoint.count()).toBe(4 * (2 + 2));
    const claims = await database.client.runEvent.count({ where: { type: "run.claimed" } });
    expect(claims).toBe(4);
  }, 60_000);
});
