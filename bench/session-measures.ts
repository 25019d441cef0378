/**
 * Measures of Session values: fork, merge (alone and followed by reading every chunk of the result), and the heap
 * a fork holds. Chunks hold 160 distinct characters of text each (a short chat turn).
 */
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { makeChunk, type Chunk } from "../runtime/session/chunk";
import { Session } from "../runtime/session/session";
import { keepAlive, microsecondsPerOperation, samplesOf, type Repetition, type Samples } from "./timing";

/** Characters of text in each benchmark chunk: a short chat turn. */
export const CHUNK_TEXT_LENGTH = 160;

const AT = new Date(0).toISOString();

function turnText(label: string, index: number): string {
  return `${label} ${index}: `.padEnd(CHUNK_TEXT_LENGTH, "the quick brown fox jumps over the lazy dog ");
}

function turn(index: number, label = ""): Chunk {
  return index % 2 === 0
    ? makeChunk("user", { content: turnText(`${label}question`, index) }, { at: AT, producer: "bench" })
    : makeChunk("assistant", { content: turnText(`${label}answer`, index), tool_calls: null }, { at: AT, producer: "bench" });
}

/**
 * A root session holding `count` chunks: alternating user and assistant turns of `CHUNK_TEXT_LENGTH`
 * distinct characters each, like a long conversation. Built in one go, so its rope is balanced with full leaves.
 */
export function sessionWithChunks(count: number, label = ""): Session {
  const chunks: Chunk[] = [];
  for (let i = 0; i < count; i++) chunks.push(turn(i, label));
  return Session.derive({ chunks, parents: [], kind: "leaf_user", operator: "bench.build" });
}

/** The same conversation grown one chunk at a time, as an agent loop grows its session (a taller, uneven rope). */
export function sessionGrownByAppends(count: number, label = ""): Session {
  let session = Session.create("empty");
  for (let i = 0; i < count; i++) session = session.append(turn(i, label));
  return session;
}

/** The same size reached by merging many small sessions of uneven sizes (fan-in of branches). */
export function sessionOfMerges(count: number, label = ""): Session {
  let session = Session.create("empty");
  let made = 0;
  for (let piece = 0; made < count; piece++) {
    const size = Math.min(count - made, 7 + ((piece * 37) % 90));
    const branch = sessionWithChunks(size, `${label}${piece}.`);
    session = piece % 3 === 2 ? branch.merge(session) : session.merge(branch);
    made += size;
  }
  return session;
}

/** Microseconds per `Session.fork()` of a session with `chunkCount` chunks (batches of `batch` forks). */
export async function measureFork(chunkCount: number, batch: number, repetition: Repetition): Promise<Samples> {
  const session = sessionWithChunks(chunkCount);
  return samplesOf(repetition, () => microsecondsPerOperation(batch, () => session.fork()));
}

/** Pairs of `chunkCount`-chunk sessions built three ways, so merges see equal and unequal rope heights. */
export function mergePairs(chunkCount: number): { pairs: [Session, Session][]; heights: string } {
  const balanced = [sessionWithChunks(chunkCount, "a"), sessionWithChunks(chunkCount, "b")] as const;
  const grown = sessionGrownByAppends(chunkCount, "c");
  const merged = sessionOfMerges(chunkCount, "d");
  const pairs: [Session, Session][] = [
    [balanced[0], balanced[1]],
    [balanced[0], grown],
    [grown, merged],
    [merged, balanced[1]],
  ];
  const heights = pairs.map(([left, right]) => `${left.chunks.depth}+${right.chunks.depth}`).join(", ");
  return { pairs, heights };
}

/** Microseconds per `a.merge(b)` of two `chunkCount`-chunk sessions, over pairs of equal and unequal heights. */
export async function measureMerge(chunkCount: number, batch: number, repetition: Repetition): Promise<Samples & { heights: string }> {
  const { pairs, heights } = mergePairs(chunkCount);
  const samples = await samplesOf(repetition, () =>
    microsecondsPerOperation(batch, (index) => {
      const [left, right] = pairs[index % pairs.length] as [Session, Session];
      return left.merge(right);
    }),
  );
  return { ...samples, heights };
}

/** Reads every chunk of a session the way a consumer would (for...of), touching each chunk. */
export function readAllChunks(session: Session): number {
  let characters = 0;
  for (const chunk of session.chunks) characters += chunk.kind.length;
  return characters;
}

/**
 * Microseconds per `a.merge(b)` followed by reading all chunks of the result (2 x `chunkCount`), over pairs of
 * equal and unequal rope heights.
 */
export async function measureMergeRead(chunkCount: number, batch: number, repetition: Repetition): Promise<Samples & { heights: string }> {
  const { pairs, heights } = mergePairs(chunkCount);
  const samples = await samplesOf(repetition, () =>
    microsecondsPerOperation(batch, (index) => {
      const [left, right] = pairs[index % pairs.length] as [Session, Session];
      const merged = left.merge(right);
      const read = readAllChunks(merged);
      if (read === 0) throw new Error("expected the merged session to have chunks");
      return merged;
    }),
  );
  return { ...samples, heights };
}

/**
 * The garbage collector, made callable without restarting node: V8 accepts `--expose-gc` at run time, and a new
 * VM context then sees a global `gc`. This lets `npm run bench:runtime` (plain tsx) measure heap reliably.
 */
export function garbageCollector(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === "function") return existing;
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

/**
 * Bytes of the heap's data after full collections: every space but V8's code spaces. Code objects of functions the
 * JIT finishes compiling on its own threads land there at unforeseeable moments (0-100 bytes per fork of 1,000 forks
 * were seen between two readings), and no session operation allocates code.
 */
function settledHeap(gc: () => void): number {
  for (let i = 0; i < 3; i++) gc();
  let bytes = 0;
  for (const space of getHeapSpaceStatistics()) if (!CODE_SPACES.has(space.space_name)) bytes += space.space_used_size;
  return bytes;
}

const CODE_SPACES = new Set(["code_space", "code_large_object_space"]);

/**
 * Runs `measure` with V8's optimising compilers (Maglev, TurboFan) and bytecode flushing off, then restores the
 * defaults. An optimising compile finished during a measurement leaves its metadata (deoptimisation data, feedback)
 * in old space, not only code in the code spaces: 30 readings of 1,000 forks in one process
 * gave 170.7 bytes per fork most of the time and 255-426 in 10-30 % of them. The interpreter and the baseline
 * compiler build the same objects (a fork's size is its objects' layout, fixed by its constructor), and with them
 * every reading after the first is 170.7-171.2.
 */
function withoutOptimisingCompilers(measure: () => void): void {
  setFlagsFromString("--max-opt=1");
  setFlagsFromString("--no-flush-bytecode");
  try {
    measure();
  } finally {
    setFlagsFromString("--max-opt=999");
    setFlagsFromString("--flush-bytecode");
  }
}

/** Heap bytes of one session and of its forks, from one measurement. */
export interface ForkMemory {
  sessionBytes: number;
  bytesPerFork: number;
}

function forkMemoryOnce(chunkCount: number, forkCount: number, gc: () => void): ForkMemory {
  const before = settledHeap(gc);
  const session = sessionWithChunks(chunkCount);
  const withSession = settledHeap(gc);
  const forks: Session[] = [];
  for (let i = 0; i < forkCount; i++) forks.push(session.fork());
  const withForks = settledHeap(gc);
  keepAlive([session, forks]);
  keepAlive(null);
  const sessionBytes = withSession - before;
  if (sessionBytes <= 0) {
    throw new Error(`heap measurement disturbed: expected the session to add to the heap; found ${sessionBytes} bytes (use more chunks)`);
  }
  return { sessionBytes, bytesPerFork: (withForks - withSession) / forkCount };
}

/**
 * Heap bytes per fork held by `forkCount` forks of one `chunkCount`-chunk session, over `repeats` measurements on
 * fresh sessions. The array holding the forks is counted too (about 8 bytes per fork), as a Python list of forks
 * is counted by tracemalloc in the reference's measure.
 */
export function measureForkBytes(chunkCount: number, forkCount: number, repeats: number): Samples & { sessionBytes: number } {
  const gc = garbageCollector();
  const samples: ForkMemory[] = [];
  withoutOptimisingCompilers(() => {
    // Discarded: the process's first forks also leave what V8 makes once per code path (feedback, allocation sites).
    forkMemoryOnce(chunkCount, forkCount, gc);
    for (let i = 0; i < repeats; i++) samples.push(forkMemoryOnce(chunkCount, forkCount, gc));
  });
  const perFork = samples.map((sample) => sample.bytesPerFork).sort((a, b) => a - b);
  const middle = samples.find((sample) => sample.bytesPerFork === perFork[Math.floor(perFork.length / 2)]) as ForkMemory;
  return {
    median: middle.bytesPerFork,
    min: perFork[0] as number,
    max: perFork[perFork.length - 1] as number,
    values: perFork,
    sessionBytes: middle.sessionBytes,
  };
}
