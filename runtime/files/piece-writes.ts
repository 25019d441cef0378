/**
 * Pieces of a file written on the thread pool while the caller fills the next one: each piece is written at its
 * own offset (positional writes, so pieces in flight together land in order), and its buffer comes back for
 * reuse once written. The file's bytes are those of the pieces in the order they were handed over.
 *
 * Why: building a 3 MB lineage export takes milliseconds of this thread; copying each 256 KB piece into the page
 * cache (`write`) can run on another core meanwhile instead of after it (bench/README.md, 2026-12-05).
 */
import { write } from "node:fs";

/** Buffers a writer holds at most; `next()` waits for the oldest write when all are in flight. */
const MAX_BUFFERS = 3;

interface InFlight {
  readonly buffer: Buffer;
  readonly done: Promise<void>;
  finished: boolean;
}

export class PieceWrites {
  private readonly inFlight: InFlight[] = [];
  private readonly free: Buffer[] = [];
  private buffers = 0;
  private position = 0;
  private failure: { error: unknown } | null = null;

  constructor(
    private readonly fd: number,
    private readonly pieceBytes: number,
  ) {}

  /** A buffer to fill (at least `pieceBytes` long): a written one when there is one, a new one, or the oldest once written. */
  async next(): Promise<Buffer> {
    this.throwIfFailed();
    this.collect();
    let buffer = this.free.pop();
    if (buffer === undefined && this.buffers < MAX_BUFFERS) {
      this.buffers++;
      buffer = Buffer.allocUnsafe(this.pieceBytes);
    }
    while (buffer === undefined) {
      await (this.inFlight[0] as InFlight).done;
      this.throwIfFailed();
      this.collect();
      buffer = this.free.pop();
    }
    return buffer;
  }

  /** Writes `buffer[0, length)` after everything handed over before it; the buffer must not be touched until `next()` returns it. */
  add(buffer: Buffer, length: number): void {
    this.throwIfFailed();
    const done = this.writeAt(buffer, 0, length, this.position).then(
      () => {
        entry.finished = true;
      },
      (error: unknown) => {
        entry.finished = true;
        this.failure ??= { error };
      },
    );
    const entry: InFlight = { buffer, done, finished: false };
    this.position += length;
    this.inFlight.push(entry);
  }

  /** Waits for every write handed over; throws the first write's failure. Call it (also after a failure) before closing the file. */
  async settle(): Promise<void> {
    while (this.inFlight.length > 0) await (this.inFlight.shift() as InFlight).done;
    this.throwIfFailed();
  }

  private collect(): void {
    while (this.inFlight.length > 0 && (this.inFlight[0] as InFlight).finished) this.free.push((this.inFlight.shift() as InFlight).buffer);
  }

  private throwIfFailed(): void {
    if (this.failure !== null) throw this.failure.error;
  }

  private writeAt(buffer: Buffer, offset: number, length: number, position: number): Promise<void> {
    return new Promise<number>((resolve, reject) => {
      write(this.fd, buffer, offset, length, position, (error, written) => (error ? reject(error) : resolve(written)));
    }).then((written) => (written < length ? this.writeAt(buffer, offset + written, length - written, position + written) : undefined));
  }
}
