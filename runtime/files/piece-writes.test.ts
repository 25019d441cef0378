import { closeSync, openSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inTemporaryDirectory } from "../testing/temporary-directory";
import { PieceWrites } from "./piece-writes";

const inDirectory = (body: (directory: string) => Promise<void>): Promise<void> => inTemporaryDirectory("rath-pieces-", body);

describe("PieceWrites", () => {
  it("writes the pieces in the order handed over, with more pieces than buffers, reusing at most three buffers", async () => {
    await inDirectory(async (directory) => {
      const file = join(directory, "out");
      const fd = openSync(file, "wx");
      const pieces = new PieceWrites(fd, 8);
      const buffers = new Set<Buffer>();
      const expected: string[] = [];
      for (let i = 0; i < 20; i++) {
        const buffer = await pieces.next();
        buffers.add(buffer);
        expect(buffer.length).toBeGreaterThanOrEqual(8);
        // Pieces of different lengths, so an out-of-order or misplaced write shows.
        const text = `${i}:${"abcdefg".slice(0, i % 6)};`.slice(0, 8);
        const length = buffer.write(text, 0, "latin1");
        pieces.add(buffer, length);
        expected.push(text);
      }
      await pieces.settle();
      closeSync(fd);
      expect(await readFile(file, "latin1")).toBe(expected.join(""));
      expect(buffers.size).toBeLessThanOrEqual(3);
    });
  });

  it("a released writer's buffers go to the next writer of the same size, not before its writes are done", async () => {
    await inDirectory(async (directory) => {
      const fd = openSync(join(directory, "a"), "wx");
      const first = new PieceWrites(fd, 64);
      const taken = [await first.next(), await first.next(), await first.next()];
      for (const buffer of taken) first.add(buffer, buffer.write("abc", 0, "latin1"));
      // Writes in flight: release() does nothing, so a second writer gets new buffers.
      first.release();
      const during = new PieceWrites(fd, 64);
      expect(taken).not.toContain(await during.next());
      await first.settle();
      first.release();
      await expect(first.next()).rejects.toThrow(/after release/);
      const next = new PieceWrites(fd, 64);
      const reused = [await next.next(), await next.next(), await next.next()];
      expect(new Set(reused)).toEqual(new Set(taken));
      // A writer of another size does not get them.
      next.release();
      const other = new PieceWrites(fd, 32);
      const small = await other.next();
      expect(small.length).toBe(32);
      expect(taken).not.toContain(small);
      closeSync(fd);
      expect(await readFile(join(directory, "a"), "latin1")).toBe("abcabcabc");
    });
  });

  it("reports a failed write from settle() and from next()", async () => {
    await inDirectory(async (directory) => {
      const file = join(directory, "read-only");
      await writeFile(file, "");
      const fd = openSync(file, "r");
      try {
        const pieces = new PieceWrites(fd, 16);
        const buffer = await pieces.next();
        pieces.add(buffer, buffer.write("x", 0));
        await expect(pieces.settle()).rejects.toMatchObject({ code: "EBADF" });
        await expect(pieces.next()).rejects.toMatchObject({ code: "EBADF" });
      } finally {
        closeSync(fd);
      }
    });
  });
});
