/**
 * Pieces of a file written on the thread pool while the caller fills the next one: each piece is written at its
 * own offset (positional writes, so pieces in flight together land in order), and its buffer comes back for
 * reuse once written. The file's bytes are those of the pieces in the order they were handed over.
 *
 * Why: building a 3 MB lineage export takes milliseconds of this thread; copying each 256 KB piece into the page
 * cache (`write`) can run on another core meanwhile instead of after it (bench/README.md, 2026-12-05).
 *
 * A writer's buffers are handed back by `release()` and kept (at most MAX_BUFFERS of one size, for the process's
 * life) for the next writer: a fresh 256 KB buffer is fresh memory from the allocator, and on this VM its 64 page
 * faults cost about 1 ms, so an export that got three new buffers took ~2.5 ms longer (bench/README.md, 2026-12-05
 * 07:00-08:40).
 */
import { write } from "node:fs";

/** Buffers a writer holds at most; `next()` waits for the oldest write when all are in flight. */
const MAX_BUFFERS = 3;

/** Buffers released by finished writers, all of `spareBytes` bytes, at most MAX_BUFFERS. */
const spare: Buffer[] = [];
let spareBytes = 0;

function takeSpare(bytes: number): Buffer {
  return (bytes === spareBytes ? spare.pop() : undefined) ?? Buffer.allocUnsafe(bytes);
}

function giveSpare(buffer: Buffer): void {
  if (buffer.length !== spareBytes) {
    spare.length = 0;
    spareBytes = buffer.length;
  }
  if (spare.length < MAX_BUFFERS) spare.push(buffer);
}

interface InFlight {
  readonly buffer: Buffer;
  readonly done: Promise<void>;
  finished: boolean;
}

export class PieceWrites {
  private readonly inFlight: InFlight[] = [];
  private readonly free: Buffer[] = [];
  /** Every buffer this writer took (from the spares or new), for `release()`. */
  private readonly owned: Buffer[] = [];
  private released = false;
  private position = 0;
  private failure: { error: unknown } | null = null;

  constructor(
    private readonly fd: number,
    private readonly pieceBytes: number,
  ) {}

  /** A buffer to fill (at least `pieceBytes` long): a written one when there is one, a spare or new one, or the oldest once written. */
  async next(): Promise<Buffer> {
    if (this.released) throw new Error("PieceWrites.next() after release()");
    this.throwIfFailed();
    this.collect();
    let buffer = this.free.pop();
    if (buffer === undefined && this.owned.length < MAX_BUFFERS) {
      buffer = takeSpare(this.pieceBytes);
      this.owned.push(buffer);
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

  /**
   * Hands this writer's buffers on to the next writer. Only once no write is in flight (after `settle()`, which
   * a failure needs too); before that it does nothing. The writer gives out no buffer after it, and the caller
   * must not touch one it was given.
   */
  release(): void {
    if (this.released || this.inFlight.length > 0) return;
    this.released = true;
    for (const buffer of this.owned) giveSpare(buffer);
    this.owned.length = 0;
    this.free.length = 0;
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
