import { constants } from "node:fs";
import { mkdir, open, rename, unlink, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { RathError } from "../errors";
import type { Chunk } from "../session/chunk";
import type { Session } from "../session/session";
import { addUsage, type Usage } from "../session/usage";
import { chunkBodies, sessionBodies } from "./dialect";
import { jsonLine } from "./jsonl-lines";
import { RATH_SCHEMA_VERSION, type Dialect } from "./records";
import { PARTIAL_SUFFIX, SESSION_FILE_SUFFIX } from "./session-loader";
import { buildHeader, buildTrailer, fileTime } from "./session-records";

/** Options of `openSessionWriter`. */
export interface SessionWriterOptions {
  /** 2 = Rath dialect (default), 1 = strict reference dialect. */
  dialect?: Dialect;
  /** File name without `.jsonl` (default: the session id). */
  name?: string;
  /** The header's `created_at` (default: now); dialect 1 writes it in the reference's form (`+00:00`, microseconds). */
  createdAt?: string;
  /** Clock for `created_at` and `closed_at` (tests). */
  now?: () => Date;
  /** The header's `sandbox_handle_id` (default: the id of the session's bound handle, or null). */
  sandboxHandleId?: string | null;
}

/** Session ids with an open writer in this process (another process is kept out by O_EXCL on the partial file). */
const openWriters = new Set<string>();

const FILE_MODE = 0o600;

/**
 * Appends one session to `<name>.jsonl.__partial__` (mode 0600): the header and the session's chunks when
 * opened, then chunk records as they arrive, then on `close()` a trailer, fsync and an atomic rename to
 * `<name>.jsonl`. A crash leaves the partial file, which loads as not closed. One writer per session id.
 */
export class SessionWriter {
  /** The final path, valid after `close()`. */
  readonly path: string;
  /** The in-flight path. */
  readonly partialPath: string;
  readonly sessionId: string;
  readonly dialect: Dialect;
  private readonly handle: FileHandle;
  private readonly now: () => Date;
  private queue: Promise<void> = Promise.resolve();
  private records = 0;
  private sourceChunks = 0;
  private usage: Usage | null;
  private state: "open" | "closing" | "closed" | "abandoned" = "open";
  /** The first failed write; after one, the file no longer matches the counters, so close() refuses. */
  private failure: Error | undefined;

  /** Use `openSessionWriter` (`written`: the chunk records and session chunks it wrote with the header). */
  constructor(fields: {
    path: string;
    partialPath: string;
    session: Session;
    dialect: Dialect;
    handle: FileHandle;
    now: () => Date;
    written: { records: number; chunks: number };
  }) {
    this.path = fields.path;
    this.partialPath = fields.partialPath;
    this.sessionId = fields.session.id;
    this.dialect = fields.dialect;
    this.handle = fields.handle;
    this.now = fields.now;
    this.usage = fields.session.usage;
    this.records = fields.written.records;
    this.sourceChunks = fields.written.chunks;
  }

  /** Chunk records written so far (in dialect 1 a memory chunk may write several or none). */
  get chunkRecordsWritten(): number {
    return this.records;
  }

  /** Session chunks consumed so far. */
  get chunksWritten(): number {
    return this.sourceChunks;
  }

  get closed(): boolean {
    return this.state !== "open";
  }

  /** Appends chunk records for these chunks; their usage is added to the cumulative usage. */
  async append(...chunks: Chunk[]): Promise<void> {
    this.assertOpen("append chunks");
    for (const chunk of chunks) this.usage = addUsage(this.usage, chunk.meta.usage);
    return this.enqueue(this.chunkLines(chunks));
  }

  /** Appends the chunks of a later snapshot of the same session that are not written yet, and adopts its usage. */
  async update(session: Session): Promise<void> {
    this.assertOpen("update");
    if (session.id !== this.sessionId) {
      throw new RathError("invalid_argument", `this writer persists session ${this.sessionId}, found a snapshot of session ${session.id}`);
    }
    if (session.chunks.length < this.sourceChunks) {
      throw new RathError(
        "invalid_argument",
        `expected a later snapshot with at least ${this.sourceChunks} chunks, found ${session.chunks.length} (chunks are append-only)`,
      );
    }
    const fresh = session.chunks.slice(this.sourceChunks);
    this.usage = session.usage;
    return this.enqueue(this.chunkLines(fresh));
  }

  /**
   * Writes the trailer, fsyncs, closes and renames the partial file to `<name>.jsonl` atomically.
   * Returns the final path. `usage` overrides the cumulative usage tracked from the chunks; `closedAt` the
   * trailer's time (default: now).
   */
  async close(options: { usage?: Usage | null; closedAt?: string } = {}): Promise<string> {
    this.assertOpen("close");
    if (options.usage !== undefined) this.usage = options.usage;
    // No append may slip in between the last queued chunk and the trailer.
    this.state = "closing";
    await this.queue;
    if (this.failure) {
      this.state = "abandoned";
      openWriters.delete(this.sessionId);
      await this.handle.close().catch(() => undefined);
      throw new RathError("io_error", `not closing ${this.partialPath}: an earlier write failed (${this.failure.message}); the partial file is kept`, {
        cause: this.failure,
      });
    }
    try {
      const closedAt = fileTime(this.dialect, options.closedAt ?? this.now());
      await this.handle.write(jsonLine(buildTrailer(closedAt, this.records, this.usage)));
      await this.handle.sync();
      await this.handle.close();
      await rename(this.partialPath, this.path);
      await syncDirectory(this.path);
      this.state = "closed";
    } catch (error) {
      this.state = "abandoned";
      await this.handle.close().catch(() => undefined);
      throw new RathError("io_error", `could not close persisted session ${this.partialPath}: ${(error as Error).message}`, { cause: error });
    } finally {
      openWriters.delete(this.sessionId);
    }
    return this.path;
  }

  /** Releases the file without a trailer or rename, leaving the partial file (shows as crashed/incomplete). */
  async abandon(): Promise<void> {
    if (this.state !== "open") return;
    this.state = "abandoned";
    try {
      await this.queue.catch(() => undefined);
      await this.handle.close();
    } finally {
      openWriters.delete(this.sessionId);
    }
  }

  /** Writes lines in order; one write per batch, so a crash cuts at most the last line. */
  private enqueue(lines: string): Promise<void> {
    if (lines.length === 0) return this.queue;
    const next = this.queue.then(async () => {
      await this.handle.write(lines);
    });
    this.queue = next.catch(() => undefined);
    return next.catch((error: unknown) => {
      this.failure ??= error as Error;
      throw new RathError("io_error", `could not append to ${this.partialPath}: ${(error as Error).message}`, { cause: error });
    });
  }

  /**
   * Serialises chunks as records (advancing the counters now, so concurrent calls keep their order). The
   * chunks written at open went through `sessionBodies` (dialect 1: recalled memory first, as the reference
   * orders it); a memory recall appended later is written where it arrives, since lines on disk cannot move.
   */
  chunkLines(chunks: Iterable<Chunk>): string {
    let out = "";
    for (const chunk of chunks) {
      for (const body of chunkBodies(chunk, this.dialect)) {
        out += jsonLine({ record_type: "chunk", index: this.records, ...body });
        this.records += 1;
      }
      this.sourceChunks += 1;
    }
    return out;
  }

  private assertOpen(action: string): void {
    if (this.state !== "open") {
      throw new RathError("invalid_session_operation", `cannot ${action}: the writer for session ${this.sessionId} is already ${this.state}`);
    }
  }
}

async function syncDirectory(file: string): Promise<void> {
  const directory = join(file, "..");
  let handle: FileHandle | undefined;
  try {
    handle = await open(directory, constants.O_RDONLY);
    await handle.sync();
  } catch {
    // Some filesystems cannot fsync a directory; the rename itself is still atomic.
  } finally {
    await handle?.close();
  }
}

/**
 * Opens the writer for a session in `directory`: creates `<name>.jsonl.__partial__` exclusively (O_EXCL, mode
 * 0600) and writes the header and the session's current chunks. Refused with `conflict` when this process
 * already writes the session, or when the partial file exists (another writer, or a crashed one to inspect).
 */
export async function openSessionWriter(directory: string, session: Session, options: SessionWriterOptions = {}): Promise<SessionWriter> {
  const dialect = options.dialect ?? RATH_SCHEMA_VERSION;
  const name = options.name ?? session.id;
  if (name.length === 0 || name.includes("/") || name.includes("\\") || name === "." || name === "..") {
    throw new RathError("invalid_argument", `expected a file name without path separators for the session file, found '${name}'`);
  }
  if (openWriters.has(session.id)) {
    throw new RathError("conflict", `session ${session.id} already has an open writer in this process; close it first`, {
      details: { session_id: session.id },
    });
  }
  const now = options.now ?? (() => new Date());
  const path = join(directory, `${name}${SESSION_FILE_SUFFIX}`);
  const partialPath = `${path}${PARTIAL_SUFFIX}`;
  // The header and the session's chunks are serialised before the file exists, so a value that cannot be
  // written fails here and leaves no file behind.
  const bodies = sessionBodies(session.chunks, dialect);
  let firstText: string;
  try {
    firstText = jsonLine(
      buildHeader(session, {
        dialect,
        createdAt: fileTime(dialect, options.createdAt ?? now()),
        chunksAtOpen: bodies.length,
        sandboxHandleId: options.sandboxHandleId,
      }),
    );
    for (let index = 0; index < bodies.length; index++) firstText += jsonLine({ record_type: "chunk", index, ...bodies[index] });
  } catch (error) {
    if (error instanceof RathError) throw error;
    throw new RathError("invalid_argument", `cannot write session ${session.id}: ${(error as Error).message}`, { cause: error });
  }
  openWriters.add(session.id);
  let handle: FileHandle;
  try {
    await mkdir(directory, { recursive: true });
    handle = await open(partialPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND, FILE_MODE);
  } catch (error) {
    openWriters.delete(session.id);
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new RathError(
        "conflict",
        `${partialPath} already exists: another writer holds session ${session.id}, or a previous writer crashed (load or remove the partial file first)`,
        { cause: error, details: { session_id: session.id, file: partialPath } },
      );
    }
    throw new RathError("io_error", `could not create ${partialPath}: ${(error as Error).message}`, { cause: error });
  }
  const writer = new SessionWriter({ path, partialPath, session, dialect, handle, now, written: { records: bodies.length, chunks: session.chunks.length } });
  try {
    await handle.chmod(FILE_MODE);
    await handle.write(firstText);
  } catch (error) {
    // Nothing usable was written: remove the file, so a retry is not refused as a `conflict` by an empty partial.
    await writer.abandon();
    await unlink(partialPath).catch(() => undefined);
    throw new RathError("io_error", `could not write the header of ${partialPath}: ${(error as Error).message}`, { cause: error });
  }
  return writer;
}
