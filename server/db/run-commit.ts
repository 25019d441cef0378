/**
 * The step commit: after every step the worker writes the sessions and chunks the step produced, its events
 * and the new checkpoint in ONE transaction, fenced by its lease token. A stale token, a checkpoint that does
 * not follow the last one, or a plan hash other than the run's is refused and nothing is written.
 */
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import type { Checkpoint as CheckpointRow } from "./generated/sqlite/client";
import type { Database, TransactionClient } from "./database";
import { fromJsonText, toJsonText } from "./json-text";
import { appendRunEvents, RunEventInput, type RunEventRecord } from "./run-events";
import { staleTokenError } from "./run-store";
import { ChunkInput, SessionInput } from "./session-record";

/** The checkpoint of a step: contiguous `seq` from 1, the plan hash, the engine's state and what runs next. */
export const CheckpointInput = z.object({
  seq: z.number().int().positive(),
  planHash: z.string().min(1),
  state: z.unknown(),
  nextNodes: z.array(z.string()),
  pendingInterrupts: z.array(z.string()).default([]),
  effectWatermark: z.number().int().nonnegative().default(0),
});
export type CheckpointInput = z.input<typeof CheckpointInput>;

/** A stored checkpoint. */
export interface CheckpointRecord {
  runId: string;
  seq: number;
  planHash: string;
  state: unknown;
  nextNodes: string[];
  pendingInterrupts: string[];
  effectWatermark: number;
  at: Date;
}

/** Everything one step writes. All parts are optional; an empty commit still checks the fencing token. */
export const StepCommit = z.object({
  sessions: z.array(SessionInput).default([]),
  chunks: z.array(ChunkInput).default([]),
  events: z.array(RunEventInput).default([]),
  checkpoint: CheckpointInput.optional(),
  /** Tokens the step used; added to the run's `tokensUsed`. */
  tokensUsed: z.number().int().nonnegative().default(0),
});
export type StepCommit = z.input<typeof StepCommit>;

/** What a commit wrote: the checkpoint (if any) and the events with their sequence numbers. */
export interface CommitResult {
  checkpoint: CheckpointRecord | null;
  events: RunEventRecord[];
}

/**
 * Commits one step of a running run held with `fencingToken`. Events are appended in the given order, then
 * `run.checkpoint.created {seq}` when there is a checkpoint. Refuses with `conflict` (stale token, run not
 * running, checkpoint seq not last+1, plan hash mismatch) or `invalid_argument` (a chunk of another run's session).
 */
export async function commitStep(database: Database, runId: string, fencingToken: number, commit: StepCommit): Promise<CommitResult> {
  const step = StepCommit.parse(commit);
  return database.transaction(async (transaction) => {
    // The fenced update comes first: it locks the run row (PostgreSQL), so a concurrent claim waits for us or wins.
    const fenced = await transaction.run.updateMany({
      where: { id: runId, fencingToken, status: "running" },
      data: { tokensUsed: { increment: step.tokensUsed } },
    });
    const run = await transaction.run.findUnique({ where: { id: runId } });
    if (run === null) throw new RathError("not_found", `run ${runId} not found`);
    if (fenced.count !== 1) {
      if (run.fencingToken !== fencingToken) throw staleTokenError(runId, fencingToken, run.fencingToken);
      throw new RathError("conflict", `run ${runId} is ${run.status}, not running; a step cannot be committed`);
    }
    const now = new Date();
    let checkpoint: CheckpointRecord | null = null;
    if (step.checkpoint !== undefined) {
      if (step.checkpoint.planHash !== run.planHash) {
        throw new RathError(
          "conflict",
          `checkpoint plan hash mismatch for run ${runId}: expected ${run.planHash}, found ${step.checkpoint.planHash}`,
          { details: { runId, expected: run.planHash, found: step.checkpoint.planHash } },
        );
      }
      const last = await lastCheckpointSeq(transaction, runId);
      if (step.checkpoint.seq !== last + 1) {
        throw new RathError(
          "conflict",
          `checkpoint seq for run ${runId} must follow the last one: expected ${last + 1}, found ${step.checkpoint.seq}`,
          { details: { runId, expected: last + 1, found: step.checkpoint.seq } },
        );
      }
      const row = await transaction.checkpoint.create({
        data: {
          runId,
          seq: step.checkpoint.seq,
          planHash: step.checkpoint.planHash,
          state: toJsonText(step.checkpoint.state ?? null, "checkpoint state"),
          nextNodes: toJsonText(step.checkpoint.nextNodes, "checkpoint nextNodes"),
          pendingInterrupts: toJsonText(step.checkpoint.pendingInterrupts, "checkpoint pendingInterrupts"),
          effectWatermark: step.checkpoint.effectWatermark,
          at: now,
        },
      });
      checkpoint = toCheckpointRecord(row);
    }
    await writeSessions(transaction, runId, step.sessions, now);
    await writeChunks(transaction, runId, step.sessions, step.chunks);
    const events = await appendRunEvents(
      transaction,
      runId,
      [...step.events, ...(checkpoint === null ? [] : [{ type: "run.checkpoint.created", payload: { seq: checkpoint.seq } }])],
      now,
    );
    return { checkpoint, events };
  });
}

async function lastCheckpointSeq(transaction: TransactionClient, runId: string): Promise<number> {
  const last = await transaction.checkpoint.findFirst({ where: { runId }, orderBy: { seq: "desc" }, select: { seq: true } });
  return last?.seq ?? 0;
}

async function writeSessions(
  transaction: TransactionClient,
  runId: string,
  sessions: readonly z.infer<typeof SessionInput>[],
  now: Date,
): Promise<void> {
  for (const session of sessions) {
    await transaction.session.create({
      data: {
        id: session.id,
        runId,
        nodeId: session.nodeId,
        parents: toJsonText(session.lineage.parent_session_ids, "session parents"),
        lineageOperator: session.lineage.lineage_operator,
        lineageKind: session.lineage.lineage_kind,
        lineageExtras: toJsonText(session.lineage.lineage_extras, "lineage extras"),
        placement: toJsonText(session.placement, "session placement"),
        usage: session.usage === null ? null : toJsonText(session.usage, "session usage"),
        chunkCount: session.chunkCount,
        status: session.status,
        error: session.error,
        createdAt: now,
      },
    });
    if (session.lineage.parent_session_ids.length > 0) {
      await transaction.sessionParent.createMany({
        data: session.lineage.parent_session_ids.map((parentId, position) => ({ sessionId: session.id, position, parentId })),
      });
    }
  }
}

async function writeChunks(
  transaction: TransactionClient,
  runId: string,
  sessions: readonly z.infer<typeof SessionInput>[],
  chunks: readonly z.infer<typeof ChunkInput>[],
): Promise<void> {
  if (chunks.length === 0) return;
  const committed = new Set(sessions.map((session) => session.id));
  const others = [...new Set(chunks.map((chunk) => chunk.sessionId))].filter((id) => !committed.has(id));
  if (others.length > 0) {
    const owned = await transaction.session.findMany({ where: { id: { in: others }, runId }, select: { id: true } });
    const ownedIds = new Set(owned.map((session) => session.id));
    const foreign = others.filter((id) => !ownedIds.has(id));
    if (foreign.length > 0) {
      throw new RathError("invalid_argument", `chunks refer to sessions that are not sessions of run ${runId}: ${foreign.join(", ")}`);
    }
  }
  await transaction.chunk.createMany({
    data: chunks.map(({ sessionId, index, chunk }) => ({
      sessionId,
      index,
      kind: chunk.kind,
      payload: toJsonText(chunk.payload, `payload of chunk ${sessionId}#${index}`),
      meta: toJsonText(chunk.meta, `meta of chunk ${sessionId}#${index}`),
    })),
  });
  // Chunks appended to sessions stored by earlier steps (an approval's `respond`) grow their chunk count.
  for (const sessionId of others) {
    const count = Math.max(...chunks.filter((chunk) => chunk.sessionId === sessionId).map((chunk) => chunk.index + 1));
    await transaction.session.updateMany({ where: { id: sessionId, chunkCount: { lt: count } }, data: { chunkCount: count } });
  }
}

/** Maps a `checkpoints` row to a CheckpointRecord. */
export function toCheckpointRecord(row: CheckpointRow): CheckpointRecord {
  const what = `checkpoint ${row.runId}#${row.seq}`;
  return {
    runId: row.runId,
    seq: row.seq,
    planHash: row.planHash,
    state: fromJsonText(row.state, z.unknown(), `state of ${what}`),
    nextNodes: fromJsonText(row.nextNodes, z.array(z.string()), `next nodes of ${what}`),
    pendingInterrupts: fromJsonText(row.pendingInterrupts, z.array(z.string()), `pending interrupts of ${what}`),
    effectWatermark: row.effectWatermark,
    at: row.at,
  };
}

/** The run's last checkpoint, or null before the first step. */
export async function latestCheckpoint(database: Database, runId: string): Promise<CheckpointRecord | null> {
  const row = await database.client.checkpoint.findFirst({ where: { runId }, orderBy: { seq: "desc" } });
  return row === null ? null : toCheckpointRecord(row);
}

/** One checkpoint by sequence number (e.g. to fork a run from an earlier step), or null. */
export async function getCheckpoint(database: Database, runId: string, seq: number): Promise<CheckpointRecord | null> {
  const row = await database.client.checkpoint.findUnique({ where: { runId_seq: { runId, seq } } });
  return row === null ? null : toCheckpointRecord(row);
}

/**
 * The checkpoint to resume a run from: the latest one, refused with `conflict` when it was written for another
 * plan (the revision's compiled plan changed). Null when the run has no checkpoint yet (start from the beginning).
 */
export async function checkpointForResume(database: Database, runId: string, planHash: string): Promise<CheckpointRecord | null> {
  const checkpoint = await latestCheckpoint(database, runId);
  if (checkpoint !== null && checkpoint.planHash !== planHash) {
    throw new RathError(
      "conflict",
      `cannot resume run ${runId} from checkpoint ${checkpoint.seq}: expected plan hash ${planHash}, found ${checkpoint.planHash}`,
      { details: { runId, seq: checkpoint.seq, expected: planHash, found: checkpoint.planHash } },
    );
  }
  return checkpoint;
}
