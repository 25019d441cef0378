/**
 * The node executions a forked run takes from the original's record, as `run.step.replayed` events of the new run, so
 * its timeline reads whole: the steps before the fork point (the original's committed steps up to the checkpoint the
 * fork starts from, and those the original had itself replayed when it was a fork) and the steps of other branches
 * replayed from the original (fork-replay.ts). None of them called a model or ran a tool in the new run; each keeps
 * its recorded times and names the run and step it came from. Reads only; written with the fork's first commit.
 */
import { z } from "zod";
import type { Database } from "../db/database";
import type { RunEventInput } from "../db/run-events";
import type { ReplayedStep } from "./fork-replay";
import { StepCompletedPayload } from "./step-completed";

/** The event type of a step taken from another run's record. */
export const STEP_REPLAYED = "run.step.replayed";

/** Most steps of the prefix written (a loop of thousands of rounds lists its first ones). */
const MAX_PREFIX_STEPS = 20_000;

/** The payload of `run.step.replayed`. */
export interface StepReplayedPayload {
  node_id: string;
  /** The run that executed the step, and its step there. */
  from_run_id: string;
  from_step_seq: number;
  started_at: string | null;
  ended_at: string | null;
  inputs: string[];
  outputs: string[];
  waiting: boolean;
  /** Before the fork point, or a step of another branch that does not depend on it. */
  part: "prefix" | "branch";
}

const Replayed = z.object({
  node_id: z.string(),
  from_run_id: z.string(),
  from_step_seq: z.number().int().positive(),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  inputs: z.array(z.string()),
  outputs: z.array(z.string()),
  waiting: z.boolean(),
});

/** Input of `forkTimelineEvents`. */
export interface ForkTimelineRequest {
  originalRunId: string;
  /** The original's checkpoint the fork starts from: its steps up to this seq are the prefix. */
  checkpointSeq: number;
  /** The original session the fork stands in for in the state (its id is shown as the fork's), or null. */
  replacedSessionId: string | null;
  forkSessionId: string;
  /** Steps of other branches replayed from the original. */
  branches: readonly ReplayedStep[];
}

/** The `run.step.replayed` events of a fork, in execution order (see the file comment). */
export async function forkTimelineEvents(database: Database, request: ForkTimelineRequest): Promise<RunEventInput[]> {
  const swap = (id: string): string => (id === request.replacedSessionId ? request.forkSessionId : id);
  const rows = await database.client.runEvent.findMany({
    where: { runId: request.originalRunId, type: { in: ["run.step.completed", STEP_REPLAYED] } },
    orderBy: { seq: "asc" },
    take: MAX_PREFIX_STEPS,
  });
  const payloads: StepReplayedPayload[] = [];
  for (const row of rows) {
    const payload: unknown = JSON.parse(row.payload);
    if (row.type === STEP_REPLAYED) {
      // The original was itself a fork: what it replayed is part of every prefix (it came with its first checkpoint).
      const parsed = Replayed.safeParse(payload);
      if (parsed.success) payloads.push({ ...parsed.data, inputs: parsed.data.inputs.map(swap), outputs: parsed.data.outputs.map(swap), part: "prefix" });
      continue;
    }
    const parsed = StepCompletedPayload.safeParse(payload);
    if (!parsed.success || parsed.data.step_seq > request.checkpointSeq) continue;
    const step = parsed.data;
    payloads.push({
      node_id: step.node_id,
      from_run_id: request.originalRunId,
      from_step_seq: step.step_seq,
      started_at: step.started_at ?? null,
      ended_at: step.ended_at ?? null,
      inputs: step.inputs.map(swap),
      outputs: step.outputs.map(swap),
      waiting: step.waiting ?? false,
      part: "prefix",
    });
  }
  for (const step of request.branches) {
    payloads.push({
      node_id: step.nodeId,
      from_run_id: request.originalRunId,
      from_step_seq: step.fromStepSeq,
      started_at: step.startedAt,
      ended_at: step.endedAt,
      inputs: step.inputs,
      outputs: step.outputs,
      waiting: false,
      part: "branch",
    });
  }
  return payloads.map((payload) => ({ type: STEP_REPLAYED, payload: { ...payload } }));
}
