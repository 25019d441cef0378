import { execFileSync } from "node:child_process";
import { readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inTemporaryDirectory } from "../testing/temporary-directory";
import { replaceFile } from "./replace-file";

const inDirectory = (body: (directory: string) => Promise<void>): Promise<void> => inTemporaryDirectory("rath-replace-", body);

describe("replaceFile", () => {
  it("puts the new file in place before it returns, over an existing file or none", async () => {
    await inDirectory(async (directory) => {
      const file = join(directory, "out.jsonl");
      await writeFile(join(directory, "a.tmp"), "first\n");
      replaceFile(join(directory, "a.tmp"), file);
      expect(await readFile(file, "utf8")).toBe("first\n");

      const before = (await stat(file)).ino;
      await writeFile(join(directory, "b.tmp"), "second\n");
      replaceFile(join(directory, "b.tmp"), file);
      expect(await readFile(file, "utf8")).toBe("second\n");
      expect((await stat(file)).ino).not.toBe(before);
      expect(await readdir(directory)).toEqual(["out.jsonl"]);
    });
  });

  it("replaces a symlink itself (its target untouched) and a FIFO without blocking on it", async () => {
    await inDirectory(async (directory) => {
      const target = join(directory, "target");
      await writeFile(target, "kept\n");
      const link = join(directory, "link");
      await symlink(target, link);
      await writeFile(join(directory, "a.tmp"), "new\n");
      replaceFile(join(directory, "a.tmp"), link);
      expect(await readFile(link, "utf8")).toBe("new\n");
      expect(await readFile(target, "utf8")).toBe("kept\n");

      const fifo = join(directory, "fifo");
      execFileSync("mkfifo", [fifo]);
      await writeFile(join(directory, "b.tmp"), "over fifo\n");
      replaceFile(join(directory, "b.tmp"), fifo);
      expect((await stat(fifo)).isFile()).toBe(true);
      expect(await readFile(fifo, "utf8")).toBe("over fifo\n");
    });
  });

  it("throws when the rename fails and leaves the file as it was", async () => {
    await inDirectory(async (directory) => {
      const file = join(directory, "out.jsonl");
      await writeFile(file, "old\n");
      expect(() => replaceFile(join(directory, "missing.tmp"), file)).toThrow(/ENOENT/);
      expect(await readFile(file, "utf8")).toBe("old\n");
    });
  });
});
