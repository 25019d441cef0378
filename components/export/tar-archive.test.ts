import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tarArchive } from "./tar-archive";

let directory: string | null = null;
afterEach(() => {
  if (directory !== null) rmSync(directory, { recursive: true, force: true });
  directory = null;
});

describe("tarArchive", () => {
  it("is read back by the system's tar: names, directory and exact contents (multi-byte text, block-sized and empty files)", () => {
    directory = mkdtempSync(path.join(os.tmpdir(), "tar-archive-"));
    const files = [
      { name: "run-1-lineage.jsonl", content: '{"id":"a"}\n{"id":"b"}\n' },
      { name: "a.jsonl", content: "é → 漢字\n".repeat(300) },
      { name: "exactly-a-block.jsonl", content: "x".repeat(512) },
      { name: "empty.jsonl", content: "" },
    ];
    const archive = tarArchive("run-1-reference", files, new Date("2026-12-01T00:00:00Z"));
    expect(archive.length % 512).toBe(0);
    const file = path.join(directory, "out.tar");
    writeFileSync(file, archive);
    expect(execFileSync("tar", ["-tf", file], { encoding: "utf8" }).trim().split("\n")).toEqual(files.map((entry) => `run-1-reference/${entry.name}`));
    execFileSync("tar", ["-xf", file, "-C", directory]);
    for (const entry of files) expect(readFileSync(path.join(directory, "run-1-reference", entry.name), "utf8")).toBe(entry.content);
  });

  it("refuses names it cannot hold", () => {
    expect(() => tarArchive("d", [{ name: "a/b.jsonl", content: "" }])).toThrow("plain file names");
    expect(() => tarArchive("d", [{ name: `${"n".repeat(101)}.jsonl`, content: "" }])).toThrow("too long");
  });
});
