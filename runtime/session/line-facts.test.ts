import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exportLineage, writeLineageExport } from "../files/lineage-export";
import { IDS_PLAIN, isPlainId, lineFacts, MAX_PAIRS, OWN_ID_PLAIN, PAIR_SHIFT, PARENT_IDS_PLAIN, pairNumber, parentIdsBit } from "./line-facts";
import { Session } from "./session";

const uuid = "0b7bc07b-a88b-4e65-997d-9447983d5c26";

describe("line facts", () => {
  it("a plain id is 36 printable ASCII characters other than a quote or a backslash", () => {
    expect(isPlainId(uuid)).toBe(true);
    expect(isPlainId(" ~!#$%&'()*+,-./0123456789:;<=>?@[]^")).toBe(true);
    for (const odd of ['"', "\\", "\n", "\u007f", "\u00e9", "\u2028", "\ud800"]) expect(isPlainId(odd + uuid.slice(1))).toBe(false);
    expect(isPlainId(uuid.slice(1))).toBe(false);
    expect(isPlainId(`${uuid}x`)).toBe(false);
    expect(parentIdsBit([])).toBe(PARENT_IDS_PLAIN);
    expect(parentIdsBit([uuid, uuid])).toBe(PARENT_IDS_PLAIN);
    expect(parentIdsBit([uuid, uuid, uuid])).toBe(0);
    expect(parentIdsBit([uuid, "short"])).toBe(0);
    expect(lineFacts(false, [uuid], "a", "b") & IDS_PLAIN).toBe(PARENT_IDS_PLAIN);
    expect(lineFacts(true, ["x"], "a", "b") & IDS_PLAIN).toBe(OWN_ID_PLAIN);
  });

  it("interns (operator, kind) pairs up to MAX_PAIRS, then gives 0; a session with pair 0 writes the same bytes", async () => {
    const first = pairNumber("op-a", "op_fork");
    expect(first).toBeGreaterThan(0);
    expect(pairNumber("op-a", "op_fork")).toBe(first);
    expect(pairNumber("op-a", "op_merge")).not.toBe(first);
    const before = Session.derive({ chunks: [], parents: [uuid], kind: "op_session_loop", operator: "early" });
    expect(Session.lineFacts(before) >>> PAIR_SHIFT).toBeGreaterThan(0);
    for (let i = 0; pairNumber(`filler-${i}`, "unknown") !== 0; i++) expect(i).toBeLessThan(MAX_PAIRS);
    expect(pairNumber("late", "unknown")).toBe(0);
    expect(pairNumber("op-a", "op_fork")).toBe(first);
    const late = [
      Session.derive({ chunks: [], parents: [uuid, before.id], kind: "op_session_loop", operator: "late" }),
      Session.derive({ chunks: [], parents: [uuid], kind: "unknown", operator: "late-too", extras: [["k", 1]] }),
    ];
    for (const session of late) {
      expect(Session.lineFacts(session)).toBe(IDS_PLAIN);
    }
    const sessions = [before, ...late, before.fork(), late[0]?.fork() as Session];
    const directory = await mkdtemp(join(tmpdir(), "rath-facts-"));
    try {
      const file = join(directory, "lineage.jsonl");
      await writeLineageExport(file, sessions);
      const expected = exportLineage(sessions.map((session) => session.toSnapshot()));
      expect(expected).toContain('"lineage_operator":"late-too"');
      expect((await readFile(file)).equals(Buffer.from(expected, "utf8"))).toBe(true);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
