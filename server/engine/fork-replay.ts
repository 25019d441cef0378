/**
 * Forking inside one branch of a fan-out: the steps of the other branches do not depend on the fork point, so where
 * the original run recorded them they are replayed from the store instead of running again (no model call, no tool
 * run). The rule is exact: a step the fork is about to take is replayed when the original run committed a step of
 * the same node on the very same input sessions (same ids, same chunk counts) after the fork's checkpoint, the node
 * is unchanged in the plan the fork runs (config, wiring, attached tools and memory), and it did not end waiting on
 * a person. Sessions the fork made are new ids, so nothing downstream of the fork point can ever match: only what
 * depends on it runs live. A replayed step hands its recorded outputs on exactly as the node did (its recorded route
 * for a Selector), so a chain of replayed steps can follow, and a Merge of two untouched branches replays too.
 *
 * Each replayed output becomes a session of the new run that shares all of the original's chunks through its base
 * (no chunk rows copied), with the original's lineage (parents that were replayed in turn point to their copies)
 * and `replay.of_session` / `replay.from_run` in its lineage extras. Runs only while seeding the fork (reads only).
 */
import { z } from "zod";
import { newSessionId } from "../../runtime/ids";
import type { Lineage } from "../../runtime/session/lineage";
import { canonicalJson } from "../../runtime/workflow-spec/canonical-json";
import type { Database } from "../db/database";
import { getCheckpoint } from "../db/run-commit";
import type { RunEventInput } from "../db/run-events";
import type { SessionInput } from "../db/session-record";
import { getSession } from "../db/session-store";
import { initialExecutionState, parseExecutionState, recordCompletedStep, type ExecutionState, type SessionMeta } from "./execution-state";
import { deliverOutputs, followPort } from "./nodes/flow";
import type { NextStep } from "./nodes/node-env";
import type { Plan } from "./spec/plan";
import { StepCompletedPayload } from "./step-completed";

/** Lineage extras of a replayed session: the original session it copies, and that session's run. */
export const REPLAY_OF_SESSION = "replay.of_session";
export const REPLAY_FROM_RUN = "replay.from_run";

/** One step the fork took from the original's record. */
export interface ReplayedStep {
  nodeId: string;
  /** The original run's step (its checkpoint seq). */
  fromStepSeq: number;
  /** The new run's sessions for the step's inputs and outputs (one passed through unchanged keeps its id). */
  inputs: string[];
  outputs: string[];
  /** When the original ran the step (ISO times as recorded). */
  startedAt: string | null;
  endedAt: string | null;
}

/** What replaying adds to a fork's seed: the state after the replayed steps, the new sessions and their events. */
export interface SiblingReplay {
  state: ExecutionState;
  sessions: SessionInput[];
  events: RunEventInput[];
  replayed: ReplayedStep[];
}

/** A `run.step.completed` of the original run, with the route its Selector took (same commit). */
interface RecordedStep {
  nodeId: string;
  stepSeq: number;
  inputs: string[];
  outputs: string[];
  waiting: boolean;
  route: { chosen: number } | null;
  startedAt: string | null;
  endedAt: string | null;
}

const RouteTaken = z.object({ node_id: z.string(), chosen: z.number().int() });

/** Most recorded steps read (a loop of thousands of rounds replays its first ones only; the rest run live). */
const MAX_RECORDED_STEPS = 20_000;

async function recordedSteps(database: Database, runId: string, afterStepSeq: number): Promise<RecordedStep[]> {
  const rows = await database.client.runEvent.findMany({
    where: { runId, type: { in: ["run.step.completed", "run.route.taken"] } },
    orderBy: { seq: "asc" },
    take: MAX_RECORDED_STEPS * 2,
  });
  const steps: RecordedStep[] = [];
  let route: { nodeId: string; chosen: number } | null = null;
  for (const row of rows) {
    const payload: unknown = JSON.parse(row.payload);
    if (row.type === "run.route.taken") {
      const parsed = RouteTaken.safeParse(payload);
      route = parsed.success ? { nodeId: parsed.data.node_id, chosen: parsed.data.chosen } : null;
      continue;
    }
    const parsed = StepCompletedPayload.safeParse(payload);
    if (!parsed.success) continue;
    const step = parsed.data;
    // The executor adds a Selector's route event just before its step's completion, in the same commit.
    const chosen = route !== null && route.nodeId === step.node_id ? { chosen: route.chosen } : null;
    route = null;
    if (step.step_seq <= afterStepSeq) continue;
    steps.push({
      nodeId: step.node_id,
      stepSeq: step.step_seq,
      inputs: step.inputs,
      outputs: step.outputs,
      waiting: step.waiting ?? false,
      route: chosen,
      startedAt: step.started_at ?? null,
      endedAt: step.ended_at ?? null,
    });
  }
  return steps;
}

/** The node as a step sees it: its spec, wiring, attached tools and memory nodes. */
function nodeShape(plan: Plan, nodeId: string): string | null {
  const node = plan.nodes[nodeId];
  if (node === undefined) return null;
  const attached = [...node.tools, ...node.memory].map((id) => plan.nodes[id]?.node ?? null);
  return canonicalJson({ node, attached });
}

/**
 * Where a recorded step's outputs went, as the node decided it (the nodes' own routing, nodes/*.ts); null when the
 * record does not fit the node (then the step runs live).
 */
function recordedNext(plan: Plan, step: RecordedStep): NextStep[] | null {
  const node = plan.nodes[step.nodeId];
  if (node === undefined) return null;
  const count = step.outputs.length;
  switch (node.node.type) {
    case "agent":
    case "compressor":
    case "merge":
    case "subworkflow":
    case "approval":
      if (count === 0) return [];
      return count === 1 ? followPort(node) : null;
    case "fork":
      return count === node.successors.length ? node.successors.map((edge, output) => ({ nodeId: edge.target, edgeId: edge.edgeId, output })) : null;
    case "selector": {
      if (count !== 1 || step.route === null) return null;
      const chosen = step.route.chosen >= 0 ? node.candidates?.[step.route.chosen] : undefined;
      if (chosen !== undefined) return [{ nodeId: chosen.target, edgeId: chosen.edgeId, output: 0 }];
      if (step.route.chosen >= 0) return null;
      return node.done === null ? [] : [{ nodeId: node.done.target, edgeId: node.done.edgeId, output: 0 }];
    }
    case "output":
      return count === 1 ? [] : null;
    default:
      return null;
  }
}

function sameIds(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((id, index) => id === right[index]);
}

async function stateAt(database: Database, runId: string, seq: number, plan: Plan): Promise<ExecutionState | null> {
  if (seq === 0) return initialExecutionState(plan);
  const checkpoint = await getCheckpoint(database, runId, seq);
  return checkpoint === null ? null : parseExecutionState(checkpoint.state, `checkpoint ${seq} of run ${runId}`);
}

/** Input of `replaySiblings`. */
export interface ReplayRequest {
  /** The original run, the plan it ran and the checkpoint the fork starts from. */
  originalRunId: string;
  originalPlan: Plan;
  forkCheckpointSeq: number;
  /** The plan the fork runs. */
  plan: Plan;
  /** The fork's state before replaying (its sessions: the original's ids plus the forked session). */
  state: ExecutionState;
  forkSessionId: string;
}

/** Replays every ready step of the fork's state that the original recorded on the same inputs (see the file comment). */
export async function replaySiblings(database: Database, request: ReplayRequest): Promise<SiblingReplay> {
  const { originalRunId, originalPlan, plan, forkSessionId } = request;
  const records = await recordedSteps(database, originalRunId, request.forkCheckpointSeq);
  const state: ExecutionState = structuredClone(request.state);
  const metas = new Map<string, SessionMeta>(Object.entries(state.sessions));
  const used = new Set<number>();
  const replayedSteps: Array<{ step: RecordedStep; passThrough: Set<string> }> = [];
  const refused = new Set<string>();
  for (let progressed = true; progressed; ) {
    progressed = false;
    for (let index = 0; index < state.ready.length; index += 1) {
      const ready = state.ready[index] as ExecutionState["ready"][number];
      const key = `${ready.nodeId}\u0000${ready.inputs.join("\u0000")}`;
      if (ready.interruptId !== undefined || ready.inputs.includes(forkSessionId) || refused.has(key)) continue;
      const record = records.find((candidate) => !used.has(candidate.stepSeq) && candidate.nodeId === ready.nodeId && !candidate.waiting && sameIds(candidate.inputs, ready.inputs));
      const next = record === undefined ? null : recordedNext(plan, record);
      const shape = nodeShape(plan, ready.nodeId);
      const unchanged = shape !== null && shape === nodeShape(originalPlan, ready.nodeId);
      const before = record === undefined || next === null || !unchanged ? null : await stateAt(database, originalRunId, record.stepSeq - 1, originalPlan);
      const after = before === null || record === undefined ? null : await stateAt(database, originalRunId, record.stepSeq, originalPlan);
      // The inputs must be the sessions the original step read, at the same length.
      const sameInputs = before !== null && ready.inputs.every((id) => before.sessions[id] !== undefined && before.sessions[id].chunkCount === metas.get(id)?.chunkCount);
      if (record === undefined || next === null || before === null || after === null || !sameInputs) {
        refused.add(key);
        continue;
      }
      used.add(record.stepSeq);
      state.ready.splice(index, 1);
      recordCompletedStep(state, ready.nodeId);
      state.outputs.push(...after.outputs.slice(before.outputs.length));
      state.failures.push(...after.failures.slice(before.failures.length));
      const passThrough = new Set(record.outputs.filter((id) => metas.has(id)));
      for (const id of record.outputs) {
        const meta = after.sessions[id];
        if (!metas.has(id) && meta !== undefined) metas.set(id, meta);
      }
      deliverOutputs(plan, { next, outputs: record.outputs }, (id) => id, state.joins, (step) => state.ready.push(step));
      replayedSteps.push({ step: record, passThrough });
      progressed = true;
      break;
    }
  }
  return copyReplayedSessions(database, originalRunId, state, metas, replayedSteps);
}

/** Gives every replayed output a session of the new run sharing the original's chunks, and rewrites the state to use them. */
async function copyReplayedSessions(
  database: Database,
  originalRunId: string,
  state: ExecutionState,
  metas: Map<string, SessionMeta>,
  steps: ReadonlyArray<{ step: RecordedStep; passThrough: Set<string> }>,
): Promise<SiblingReplay> {
  const copies = new Map<string, string>();
  const swap = (id: string): string => copies.get(id) ?? id;
  const sessions: SessionInput[] = [];
  const events: RunEventInput[] = [];
  const replayed: ReplayedStep[] = [];
  const newMetas: Record<string, SessionMeta> = {};
  for (const { step, passThrough } of steps) {
    for (const id of step.outputs) {
      if (passThrough.has(id) || copies.has(id)) continue;
      const record = await getSession(database, id);
      if (record === null) continue;
      const copyId = newSessionId();
      copies.set(id, copyId);
      const known = metas.get(id);
      const chunkCount = known?.chunkCount ?? record.chunkCount;
      const lineage: Lineage = {
        ...record.lineage,
        parent_session_ids: record.lineage.parent_session_ids.map(swap),
        lineage_extras: [...record.lineage.lineage_extras, [REPLAY_OF_SESSION, id], [REPLAY_FROM_RUN, originalRunId]],
      };
      sessions.push({
        id: copyId,
        nodeId: record.nodeId,
        lineage,
        placement: record.placement,
        usage: record.usage,
        chunkCount,
        inheritedChunkCount: Math.min(record.inheritedChunkCount, chunkCount),
        base: chunkCount > 0 ? { sessionId: id, chunkCount } : null,
        status: record.status,
        error: record.error,
      });
      newMetas[copyId] = { ...(known ?? { placement: record.placement, usage: record.usage, provider: null, pending: [] }), id: copyId, lineage, chunkCount };
      events.push({ type: "session.created", payload: { session_id: copyId, lineage, chunk_count: chunkCount, node_id: record.nodeId } });
    }
    replayed.push({ nodeId: step.nodeId, fromStepSeq: step.stepSeq, inputs: step.inputs.map(swap), outputs: step.outputs.map(swap), startedAt: step.startedAt, endedAt: step.endedAt });
  }
  const rewritten: ExecutionState = {
    ...state,
    ready: state.ready.map((ready) => ({ ...ready, inputs: ready.inputs.map(swap) })),
    suspended: state.suspended.map((suspended) => ({ ...suspended, inputs: suspended.inputs.map(swap) })),
    joins: Object.fromEntries(Object.entries(state.joins).map(([node, buffer]) => [node, Object.fromEntries(Object.entries(buffer).map(([edge, id]) => [edge, swap(id)]))])),
    outputs: state.outputs.map((output) => ({ ...output, sessionId: swap(output.sessionId) })),
    sessions: { ...Object.fromEntries(metas), ...newMetas },
  };
  return { state: rewritten, sessions, events, replayed };
}
