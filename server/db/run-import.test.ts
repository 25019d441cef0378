import { beforeAll, expect, it } from "vitest";
import { parseBundle, type ReadBundle } from "../../runtime/files/bundle-reader";
import { buildBundle } from "../../runtime/files/bundle-writer";
import { makeChunk } from "../../runtime/session/chunk";
import { Session } from "../../runtime/session/session";
import type { Database } from "./database";
import { eventsPage } from "./run-events";
import { importRun } from "./run-import";
import { getRun } from "./run-store";
import { readSessionChunks } from "./session-chunks";
import { getSession, sessionGraph } from "./session-store";
import { describeEachDatabase } from "./testing/test-databases";

const SHA = "a".repeat(64);

function text(content: string) {
  return makeChunk("user", { content }, { at: "2026-01-01T00:00:00.000Z" });
}

/** root (2 chunks) -> fork (+1) -> fork of the fork (no new chunk), as a bundle of a succeeded run with 2 events. */
function forkBundle(): { bundle: ReadBundle; ids: { root: string; fork: string; again: string } } {
  const root = Session.create("user", "hello").append(text("more"));
  const fork = root.fork().append(text("forked"));
  const again = fork.fork();
  const content = buildBundle({
    sessions: [root, { session: fork, annotations: { node_id: "n1", status: "ok" } }, again],
    run: { run_id: "run_source", status: "succeeded", events: [{ type: "run.created", payload: {} }, { type: "custom", payload: { a: 1 } }] },
  });
  return { bundle: parseBundle(content, "fork.jsonl"), ids: { root: root.id, fork: fork.id, again: again.id } };
}

async function rowCounts(database: Database): Promise<number[]> {
  const client = database.client;
  return Promise.all([client.workflow.count(), client.workflowRevision.count(), client.run.count(), client.runEvent.count(), client.session.count(), client.chunk.count()]);
}

describeEachDatabase("importRun", (open) => {
  let database: Database;

  beforeAll(async () => {
    database = (await open()).database;
  });

  it("stores the bundle as a terminal run; forks share their parent's chunk rows", async () => {
    const { bundle, ids } = forkBundle();
    const imported = await importRun(database, { bundle, fileName: "fork.jsonl", contentSha256: SHA });
    expect(imported).toMatchObject({ status: "succeeded", sessionCount: 3, eventCount: 2, renamedSessions: false });
    expect((await getRun(database, imported.runId))?.status).toBe("succeeded");
    const rows = async (sessionId: string) => database.client.chunk.count({ where: { sessionId } });
    expect([await rows(ids.root), await rows(ids.fork), await rows(ids.again)]).toEqual([2, 1, 0]);
    expect((await getSession(database, ids.fork))?.base).toEqual({ sessionId: ids.root, chunkCount: 2 });
    expect((await getSession(database, ids.again))?.base).toEqual({ sessionId: ids.fork, chunkCount: 3 });
    const chunks = (await readSessionChunks(database, ids.again)) ?? [];
    expect(chunks.map((record) => (record.chunk.payload as { content: string }).content)).toEqual(["hello", "more", "forked"]);
    expect((await sessionGraph(database, imported.runId)).edges).toHaveLength(2);
    // Both edges are within the bundle's run: no session_parents rows (those are the edges across runs).
    expect(await database.client.sessionParent.count({ where: { sessionId: { in: Object.values(ids) } } })).toBe(0);
    expect((await eventsPage(database, imported.runId)).map((event) => event.type)).toEqual(["run.created", "custom", "run.imported"]);

    const again = await importRun(database, { bundle: forkBundle().bundle, fileName: "fork.jsonl", contentSha256: SHA });
    expect(again.renamedSessions).toBe(false);
    const twice = await importRun(database, { bundle, fileName: "fork.jsonl", contentSha256: SHA });
    expect(twice.renamedSessions).toBe(true);
    const renamed = await sessionGraph(database, twice.runId);
    expect(renamed.sessions.some((session) => Object.values(ids).includes(session.id))).toBe(false);
    const renamedFork = renamed.sessions.find((session) => session.nodeId === "n1");
    expect((await readSessionChunks(database, renamedFork?.id ?? ""))?.length).toBe(3);
  });

  it("writes nothing when the import fails midway", async () => {
    const { bundle } = forkBundle();
    const first = bundle.sessions[0];
    if (first === undefined) throw new Error("no session");
    // The same session twice: the second insert violates the primary key after the run and the first rows.
    const broken: ReadBundle = { ...bundle, sessions: [first, first] };
    const before = await rowCounts(database);
    await expect(importRun(database, { bundle: broken, fileName: "broken.jsonl", contentSha256: SHA })).rejects.toThrow(/unique key/);
    expect(await rowCounts(database)).toEqual(before);
  });
});
