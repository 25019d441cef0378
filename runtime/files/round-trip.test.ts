import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isRathError } from "../errors";
import { Session } from "../session/session";
import { findSessionFile, loadSessionFile } from "./session-loader";
import { openSessionWriter } from "./session-writer";

const fixtures = join(import.meta.dirname, "fixtures");

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "rath-round-trip-"));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function records(file: string): Promise<unknown[]> {
  return (await readFile(file, "utf8")).trimEnd().split("\n").map((line) => JSON.parse(line) as unknown);
}

describe("fixture round-trips: load, write in the same dialect, get the same records", () => {
  for (const [name, dialect] of [
    ["reference-closed.jsonl", 1],
    ["rath-memory-route.jsonl", 2],
  ] as const) {
    it(`${name} (dialect ${dialect})`, async () => {
      const source = join(fixtures, name);
      const { session, facts } = await loadSessionFile(source);
      // Open the writer as the runtime does: with the session's first chunk, then the rest as they arrive.
      const first = Session.fromSnapshot({ ...session.toSnapshot(), chunks: session.chunks.slice(0, 1), usage: null });
      const writer = await openSessionWriter(directory, first, {
        dialect,
        createdAt: facts.created_at,
        now: () => new Date(facts.closed_at ?? 0),
        sandboxHandleId: facts.sandbox_handle_id,
      });
      await writer.update(session);
      const written = await writer.close();
      const expected = await records(source);
      const actual = await records(written);
      // Times are re-rendered by Date (ISO with milliseconds, Z), the rest is identical.
      const withoutClosedAt = (list: unknown[]) => list.map((record) => ({ ...(record as object), closed_at: undefined }));
      expect(withoutClosedAt(actual)).toEqual(withoutClosedAt(expected));
    });
  }
});

describe("findSessionFile", () => {
  it("prefers the closed file, falls back to the partial file, and says when neither exists", async () => {
    await copyFile(join(fixtures, "crashed.jsonl.__partial__"), join(directory, "s.jsonl.__partial__"));
    expect(await findSessionFile(directory, "s")).toBe(join(directory, "s.jsonl.__partial__"));
    await copyFile(join(fixtures, "reference-closed.jsonl"), join(directory, "s.jsonl"));
    expect(await findSessionFile(directory, "s")).toBe(join(directory, "s.jsonl"));
    await expect(findSessionFile(directory, "missing")).rejects.toSatisfy((error) => isRathError(error, "not_found"));
  });
});
