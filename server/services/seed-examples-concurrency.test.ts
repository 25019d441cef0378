/**
 * Two processes seeding the examples into one fresh database at the same moment (two studios, or a studio and a
 * worker, starting together): both succeed, and the database holds exactly one copy of each example; on a database
 * seeded before the examples carried a layout, each gets exactly one layout revision. Real separate processes on one
 * SQLite file and on one PostgreSQL database.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { describeEachDatabase } from "../db/testing/test-databases";
import { runTogether } from "../db/testing/run-together";
import { EXAMPLE_SPECS } from "../engine/spec/examples";
import { seedExampleWorkflows, seedMarker } from "./seed-examples";
import { layoutMessage } from "./seed-layouts";
import { templateSlugs } from "./template-catalog";
import { stripSeededLayouts } from "./testing/strip-seeded-layouts";

type Report = { workflowIds: string[]; laidOut: string[]; error: string | null };
const seeder = path.join(path.dirname(fileURLToPath(import.meta.url)), "testing", "example-seeder.ts");

describeEachDatabase("seeding the examples from two processes at once", (open) => {
  it("both succeed and each example exists exactly once", { timeout: 90_000 }, async () => {
    const { url, database } = await open();
    const results = await runTogether<Report>(url, [[seeder], [seeder]], 75_000);
    expect(results.map((result) => result.report.error)).toEqual([null, null]);
    // One process seeded everything; the other found the markers and created nothing.
    const created = results.map((result) => result.report.workflowIds.length).sort((a, b) => a - b);
    expect(created).toEqual([0, Object.keys(EXAMPLE_SPECS).length]);
    const markers = await database.client.workflowRevision.findMany({ select: { message: true } });
    for (const slug of templateSlugs()) expect(markers.filter((row) => row.message === seedMarker(slug)), slug).toHaveLength(1);
    const names = (await database.client.workflow.findMany({ select: { name: true } })).map((row) => row.name);
    expect(names).toHaveLength(Object.keys(EXAMPLE_SPECS).length);
    expect(new Set(names).size).toBe(names.length);
  });

  it("on a database seeded before the stored layouts, both succeed and each example gets one layout revision", { timeout: 90_000 }, async () => {
    const { url, database } = await open();
    await seedExampleWorkflows(database);
    await stripSeededLayouts(database);
    const results = await runTogether<Report>(url, [[seeder], [seeder]], 75_000);
    expect(results.map((result) => result.report.error)).toEqual([null, null]);
    const laidOut = results.map((result) => result.report.laidOut.length).sort((a, b) => a - b);
    expect(laidOut).toEqual([0, Object.keys(EXAMPLE_SPECS).length]);
    const messages = await database.client.workflowRevision.findMany({ select: { message: true } });
    for (const slug of templateSlugs()) expect(messages.filter((row) => row.message === layoutMessage(slug)), slug).toHaveLength(1);
    expect(messages).toHaveLength(2 * Object.keys(EXAMPLE_SPECS).length);
  });
});
