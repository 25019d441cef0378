import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { writeLineageExport } from "../runtime/files/lineage-export";
import { makeChunk, type Chunk } from "../runtime/session/chunk";
import { Session } from "../runtime/session/session";
import { keepAlive, medianOf, microsecondsPerOperation, type Repetition } from "./timing";

/** Characters of text in each benchmark chunk: a short chat turn. */
export const CHUNK_TEXT_LENGTH = 160;

function turnText(label: string, index: number): string {
  return `${label} ${index}: `.padEnd(CHUNK_TEXT_LENGTH, "the quick brown fox jumps over the lazy dog ");
}

/**
 * A root session holding `count` chunks: alternating user and assistant turns of `CHUNK_TEXT_LENGTH`
 * distinct characters each, like a long conversation.
 */
export function sessionWithChunks(count: number): Session {
  const at = new Date(0).toISOString();
  const chunks: Chunk[] = [];
  for (let i = 0; i < count; i++) {
    chunks.push(
      i % 2 === 0
        ? makeChunk("user", { content: turnText("question", i) }, { at, producer: "bench" })
        : makeChunk("assistant", { content: turnText("answer", i), tool_calls: null }, { at, producer: "bench" }),
    );
  }
  return Session.derive({ chunks, parents: [], kind: "leaf_user", operator: "bench.build" });
}

/** Microseconds per `Session.fork()` of a session with `chunkCount` chunks (median of batches of `batch` forks). */
export async function measureFork(chunkCount: number, batch: number, repetition: Repetition): Promise<number> {
  const session = sessionWithChunks(chunkCount);
  return medianOf(repetition, () => microsecondsPerOperation(batch, () => session.fork()));
}

/** Microseconds per `a.merge(b)` of two sessions with `chunkCount` chunks each (median of batches of `batch` merges). */
export async function measureMerge(chunkCount: number, batch: number, repetition: Repetition): Promise<number> {
  const left = sessionWithChunks(chunkCount);
  const right = sessionWithChunks(chunkCount);
  return medianOf(repetition, () => microsecondsPerOperation(batch, () => left.merge(right)));
}

/** A lineage graph of `count` sessions: forks, detaches and merges of a small root, like a busy run. */
export function lineageGraph(count: number): Session[] {
  const root = sessionWithChunks(4);
  const sessions: Session[] = [root];
  for (let i = 1; i < count; i++) {
    const previous = sessions[i - 1] as Session;
    const step = i % 5;
    if (step === 0) sessions.push(previous.merge(sessions[Math.floor(i / 2)] as Session));
    else if (step === 4) sessions.push(previous.detach());
    else sessions.push(previous.fork());
  }
  return sessions;
}

/** Milliseconds to write the lineage export (JSONL file) of `count` sessions with runtime/files' writeLineageExport. */
export async function measureLineageExport(count: number, repetition: Repetition): Promise<number> {
  const sessions = lineageGraph(count);
  const directory = await mkdtemp(join(tmpdir(), "rath-bench-"));
  try {
    const file = join(directory, "lineage.jsonl");
    return await medianOf(repetition, async () => {
      const start = performance.now();
      await writeLineageExport(file, sessions);
      return performance.now() - start;
    });
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
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

function settledHeap(gc: () => void): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

/** Heap bytes of one session and of its forks, from one measurement. */
export interface ForkMemory {
  sessionBytes: number;
  bytesPerFork: number;
  /** (session + forks) / session: 1.0 would mean forks cost nothing; copying forks would give `forks + 1`. */
  ratio: number;
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
  return { sessionBytes, bytesPerFork: (withForks - withSession) / forkCount, ratio: (withForks - before) / sessionBytes };
}

/**
 * Heap held by one session with `chunkCount` chunks plus `forkCount` forks of it, over the heap held by the
 * session alone; the median of `repeats` measurements, each on a fresh session after a full collection.
 */
export function measureForkMemory(chunkCount: number, forkCount: number, repeats: number): ForkMemory {
  const gc = garbageCollector();
  const samples: ForkMemory[] = [];
  for (let i = 0; i < repeats; i++) samples.push(forkMemoryOnce(chunkCount, forkCount, gc));
  samples.sort((a, b) => a.ratio - b.ratio);
  return samples[Math.floor(samples.length / 2)] as ForkMemory;
}
