/**
 * The engine's state as stored in every checkpoint: the frontier of ready steps (FIFO), steps suspended on an
 * approval, merge join buffers, the sessions those refer to (metadata only; chunks live in the chunks table),
 * the outputs and branch failures so far, and the number of steps taken. Plain JSON, parsed at load.
 */
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import { Placement } from "../../runtime/sandbox/handle";
import { Lineage } from "../../runtime/session/lineage";
import { Session } from "../../runtime/session/session";
import { Usage } from "../../runtime/session/usage";
import type { Plan } from "./spec/plan";

/** A session without its chunks: enough to rebuild it from its first `chunkCount` stored chunks. */
export const SessionMeta = z.object({
  id: z.string().min(1),
  placement: Placement,
  lineage: Lineage,
  usage: Usage.nullable(),
  provider: z.string().nullable(),
  pending: z.array(z.string()),
  chunkCount: z.number().int().nonnegative(),
});
export type SessionMeta = z.infer<typeof SessionMeta>;

/** A step waiting to run: the node and its input session ids; `interruptId` when it resumes a decided approval. */
export const ReadyStep = z.object({
  nodeId: z.string().min(1),
  inputs: z.array(z.string().min(1)),
  interruptId: z.string().min(1).optional(),
});
export type ReadyStep = z.infer<typeof ReadyStep>;

/** A step suspended on an approval interrupt until a person decides. */
export const SuspendedStep = z.object({
  nodeId: z.string().min(1),
  inputs: z.array(z.string().min(1)),
  interruptId: z.string().min(1),
});
export type SuspendedStep = z.infer<typeof SuspendedStep>;

/** A session that reached an Output node. */
export const RunOutputEntry = z.object({ nodeId: z.string(), sessionId: z.string(), text: z.string() });
export type RunOutputEntry = z.infer<typeof RunOutputEntry>;

/** A branch that failed on purpose (a rejected approval). */
export const BranchFailure = z.object({ nodeId: z.string(), code: z.string(), message: z.string() });
export type BranchFailure = z.infer<typeof BranchFailure>;

/** The checkpointed state of a run (schema version 1). */
export const ExecutionState = z.object({
  version: z.literal(1),
  ready: z.array(ReadyStep),
  suspended: z.array(SuspendedStep),
  /** Merge node id -> incoming edge id -> session id delivered so far. */
  joins: z.record(z.string(), z.record(z.string(), z.string())),
  /** Metadata of every session referenced by `ready`, `suspended` and `joins`. */
  sessions: z.record(z.string(), SessionMeta),
  /**
   * Ids of the nodes that completed a step, in the order they first did; a node a Selector loops back to is not
   * repeated (checkpoints written before 2026-12-05 may repeat it). The step history is the run's
   * `run.step.completed` events; a list that grew by one id per step made every checkpoint of a looping run carry
   * the whole history, so the checkpoints of an n-step run held O(n^2) ids.
   */
  completed: z.array(z.string()),
  outputs: z.array(RunOutputEntry),
  failures: z.array(BranchFailure),
  steps: z.number().int().nonnegative(),
});
export type ExecutionState = z.infer<typeof ExecutionState>;

/** The state before the first step: the plan's entry node is ready with no input. */
export function initialExecutionState(plan: Plan): ExecutionState {
  return { version: 1, ready: [{ nodeId: plan.entry, inputs: [] }], suspended: [], joins: {}, sessions: {}, completed: [], outputs: [], failures: [], steps: 0 };
}

/**
 * The state a step's checkpoint is built on: `state` with its own lists and join table (the step pushes, shifts and
 * replaces entries there) and no sessions (the step fills in those still referenced). Entries are shared: nothing
 * changes a ready step, a join buffer or an output in place, so a deep copy per step is not needed.
 */
export function nextExecutionState(state: ExecutionState): ExecutionState {
  return {
    version: state.version,
    ready: [...state.ready],
    suspended: [...state.suspended],
    joins: { ...state.joins },
    sessions: {},
    completed: [...state.completed],
    outputs: [...state.outputs],
    failures: [...state.failures],
    steps: state.steps,
  };
}

/** Counts a step of `nodeId` in `state` (a working copy): one more step, and the node named once in `completed`. */
export function recordCompletedStep(state: ExecutionState, nodeId: string): void {
  state.steps += 1;
  if (!state.completed.includes(nodeId)) state.completed.push(nodeId);
}

/** Parses a stored checkpoint state; a mismatch is an `internal` error naming the checkpoint. */
export function parseExecutionState(value: unknown, where: string): ExecutionState {
  const parsed = ExecutionState.safeParse(value);
  if (!parsed.success) throw new RathError("internal", `${where} does not hold an engine state (version 1): ${parsed.error.message}`);
  return parsed.data;
}

/**
 * The metadata of a live session: its snapshot (`toSnapshot`) without chunks and sandbox handle, plus its chunk
 * count, in the snapshot's key order. Built from the session's fields, so the step that checkpoints it does not copy
 * its chunk list (every step's checkpoint holds the metadata of the sessions the next steps read).
 */
export function sessionMeta(session: Session): SessionMeta {
  const lineage = session.lineage;
  return {
    id: session.id,
    placement: session.placement,
    lineage: {
      parent_session_ids: [...lineage.parent_session_ids],
      lineage_operator: lineage.lineage_operator,
      lineage_kind: lineage.lineage_kind,
      lineage_extras: lineage.lineage_extras.map(([key, value]) => [key, value] as [string, unknown]),
    },
    usage: session.usage,
    pending: [...session.pending],
    provider: session.provider,
    chunkCount: Session.chunkCount(session),
  };
}

/** Session ids the state still refers to. */
export function referencedSessionIds(state: Pick<ExecutionState, "ready" | "suspended" | "joins">): Set<string> {
  const ids = new Set<string>();
  for (const step of [...state.ready, ...state.suspended]) for (const id of step.inputs) ids.add(id);
  for (const buffer of Object.values(state.joins)) for (const id of Object.values(buffer)) ids.add(id);
  return ids;
}
