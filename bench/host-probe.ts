/**
 * How fast this host does the kernel work a SQLite step is made of, for the engine bench's footer: the time of one
 * WAL frame's writes, a 24-byte header and a 2 KB page written at a position (`fs.writeSync`, as SQLite's `pwrite`s),
 * into a temporary file that stays in the page cache. A larger share of Rath's step is kernel time than of
 * LangGraph's (system CPU 10-15 % of Rath's against 6-9 % of LangGraph's, `process.cpuUsage`, 2026-12-05 18:45 UTC),
 * so the SQLite ratio falls where the kernel is slow: the same code (main 83fcdc8) measured
 * 2.55-3.16x LangGraph on the host of 2026-12-05 15:19-18:19 UTC, where a bare system call took ~1.3 us and a frame's
 * two `pwrite`s 4.3-5 us, and 3.57-4.02x on the host of 18:07-18:40 UTC, where they took ~0.07 and 0.7-1.1 us
 * (bench/README). A reader comparing two runs needs this number next to the load average.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "./timing";

const HEADER = Buffer.alloc(24, 1);
const PAGE = Buffer.alloc(2048, 2);
/** Frames per batch, and the file's length in frames (written round and round, as a WAL is after a restart). */
const FRAMES_PER_BATCH = 2_000;
const FILE_FRAMES = 1_000;

/** Microseconds per frame (header + page written at a position): the median of `batches` batches. */
export function walFrameWriteMicros(batches = 5): number {
  const directory = mkdtempSync(join(tmpdir(), "rath-host-probe-"));
  const fd = openSync(join(directory, "probe.wal"), "w+");
  try {
    const perFrame: number[] = [];
    for (let batch = 0; batch <= batches; batch++) {
      const started = performance.now();
      for (let frame = 0; frame < FRAMES_PER_BATCH; frame++) {
        const offset = (frame % FILE_FRAMES) * (HEADER.length + PAGE.length);
        writeSync(fd, HEADER, 0, HEADER.length, offset);
        writeSync(fd, PAGE, 0, PAGE.length, offset + HEADER.length);
      }
      // The first batch extends the file and is not kept.
      if (batch > 0) perFrame.push(((performance.now() - started) * 1000) / FRAMES_PER_BATCH);
    }
    return median(perFrame);
  } finally {
    closeSync(fd);
    rmSync(directory, { recursive: true, force: true });
  }
}
