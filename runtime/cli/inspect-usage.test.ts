import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildBundle } from "../files/bundle-writer";
import { exportLineage } from "../files/lineage-export";
import { makeChunk } from "../session/chunk";
import { Session } from "../session/session";
import { main } from "./inspect";
import type { SessionSummary } from "./inspect-summary";

const tokens = (total: number) => ({ prompt_tokens: total - 1, completion_tokens: 1, total_tokens: total });
const answer = (total: number) => makeChunk("assistant", { content: `spent ${total}`, tool_calls: null }, { usage: tokens(total) });

// root -> fork a (+100), fork b (+1000) -> merge (the runtime records 1100 for it, the reference's meaning)
const root = Session.create("user", "question");
const left = root.fork().append(answer(100));
const right = root.fork().append(answer(1000));
const merged = left.merge(right);

function file(name: string, text: string): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), "rath-inspect-usage-"));
  const target = path.join(directory, name);
  writeFileSync(target, text);
  return target;
}

async function inspect(...args: string[]): Promise<{ sessions: SessionSummary[]; table: string }> {
  let json = "";
  let table = "";
  await main([...args, "--json"], { stdout: (text) => (json += text), stderr: () => undefined });
  await main(args, { stdout: (text) => (table += text), stderr: () => undefined });
  return { sessions: (JSON.parse(json) as { sessions: SessionSummary[] }).sessions, table };
}

const totals = (sessions: SessionSummary[]) =>
  Object.fromEntries(sessions.map((session) => [session.id, [session.own_usage?.total_tokens ?? null, session.cumulative_usage?.total_tokens ?? null, session.recorded_usage?.total_tokens ?? null]]));

describe("rath inspect usage", () => {
  it("a bundle: own from the chunks a session added, cumulative counts the shared root once, the total each call once", async () => {
    expect(merged.usage?.total_tokens).toBe(1100);
    const { sessions, table } = await inspect(file("run.jsonl", buildBundle({ sessions: [root, left, right, merged] })));
    expect(totals(sessions)).toEqual({
      [root.id]: [null, null, null],
      [left.id]: [100, 100, 100],
      [right.id]: [1000, 1000, 1000],
      [merged.id]: [null, 1100, 1100],
    });
    expect(sessions.every((session) => session.ancestors_complete)).toBe(true);
    expect(table).toContain("1100 tokens spent");
    expect(table.split("\n")[0]).toMatch(/\sOWN\s+CUMULATIVE\s/);
  });

  it("a lineage export (no chunks): a merge's own usage is its record minus its parents'", async () => {
    const { sessions } = await inspect(file("lineage.jsonl", exportLineage([root, left, right, merged])));
    expect(totals(sessions)[merged.id]).toEqual([null, 1100, 1100]);
  });

  it("a merge whose parents are in no file given: own unknown, cumulative marked incomplete", async () => {
    const { sessions, table } = await inspect(file("lineage.jsonl", exportLineage([merged])));
    expect(sessions[0]).toMatchObject({ own_usage: null, cumulative_usage: null, ancestors_complete: false, recorded_usage: { prompt_tokens: 1098, completion_tokens: 2, total_tokens: 1100 } });
    expect(table).toContain("* some ancestors are in none of the files given");
  });

  it("lists parents before children whatever the file order, a session's rows together, each with its own usage", async () => {
    const child = file("a-merge.jsonl", exportLineage([merged]));
    const parents = file("b-parents.jsonl", exportLineage([right, left, root]));
    const bundle = file("c-run.jsonl", buildBundle({ sessions: [root, left, right, merged] }));
    const { sessions } = await inspect(child, parents, bundle);
    expect(sessions.map((session) => session.id)).toEqual([root.id, root.id, right.id, right.id, left.id, left.id, merged.id, merged.id]);
    expect(sessions.map((session) => session.closed)).toEqual([null, true, null, true, null, true, null, true]);
    expect(totals(sessions)).toMatchObject({ [merged.id]: [null, 1100, 1100], [right.id]: [1000, 1000, 1000], [left.id]: [100, 100, 100] });
    expect(sessions[6]?.cumulative_usage?.total_tokens).toBe(1100);
    expect(sessions[2]?.own_usage?.total_tokens).toBe(1000);
  });
});
