/**
 * "Fork from here": a new run whose root session is a fork of a stored session at one of its chunks. Nothing before
 * that chunk runs again — the recorded model outputs and tool results are the forked session's chunks, shared with
 * the original through its base (no rows copied) — and the run continues live from the original run's checkpoint
 * around the step that produced the session:
 *
 * - the chunk is inside an agent's turns (not the last chunk of its output): the agent runs again on the forked
 *   prefix (it continues its loop: the model sees the conversation up to that chunk), state = the checkpoint before
 *   that step, with the step's input replaced by the fork;
 * - otherwise (the last chunk of a step's output, or a chunk a non-agent step passed on): the fork replaces the
 *   session where the original run delivered it, state = the checkpoint after that step.
 *
 * The fork descriptor travels in the new run's input (`{ text?, fork }`); the executor seeds the run from it as its
 * first commit (checkpoint 1), so a worker crash before or after that is an ordinary resume.
 */
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import { newSessionId } from "../../runtime/ids";
import type { Chunk } from "../../runtime/session/chunk";
import { extra, type Lineage } from "../../runtime/session/lineage";
import type { Database } from "../db/database";
import type { RunEventInput } from "../db/run-events";
import { getInterrupt, type InterruptDecision } from "../db/interrupt-store";
import { getCheckpoint } from "../db/run-commit";
import type { ChunkInput, SessionInput, SessionRecord } from "../db/session-record";
import { readSessionChunks } from "../db/session-chunks";
import { getSession } from "../db/session-store";
import { getRun } from "../db/run-store";
import { forkTimelineEvents } from "./fork-timeline";
import { replaySiblings, REPLAY_FROM_RUN, REPLAY_OF_SESSION, type ReplayedStep, type SiblingReplay } from "./fork-replay";
import { revisionPlan } from "./revision-plans";
import { StepCompletedPayload } from "./step-completed";
import { initialExecutionState, parseExecutionState, referencedSessionIds, type ExecutionState, type SessionMeta } from "./execution-state";
import type { Plan } from "./spec/plan";

/** A recorded tool result replaced before the run continues (a tool_result chunk at or before the fork point). */
export const ToolResultEdit = z.strictObject({
  chunkIndex: z.number().int().nonnegative(),
  content: z.string().max(1_000_000),
});
export type ToolResultEdit = z.infer<typeof ToolResultEdit>;

/** Where a forked run comes from and what it changes in the replayed prefix (stored in the run's input as `fork`). */
export const ForkOrigin = z.object({
  runId: z.string().min(1),
  sessionId: z.string().min(1),
  chunkIndex: z.number().int().nonnegative(),
  /** The new text of the run's input chunk (the first user chunk of the prefix). */
  input: z.string().optional(),
  toolResults: z.array(ToolResultEdit).default([]),
});
export type ForkOrigin = z.infer<typeof ForkOrigin>;

/** The fork descriptor of a run's input, or null when the run is not a fork. */
export function forkOriginOf(input: unknown): ForkOrigin | null {
  if (input === null || typeof input !== "object" || !("fork" in input)) return null;
  const parsed = ForkOrigin.safeParse((input).fork);
  return parsed.success ? parsed.data : null;
}

/** The recorded step that produced a session: its node, step seq and input/output session ids. */
interface ProducingStep {
  nodeId: string;
  stepSeq: number;
  inputs: string[];
  outputs: string[];
}

/** What seeding a forked run writes as its first commit, and where it continues. */
export interface ForkSeed {
  session: SessionInput;
  chunks: ChunkInput[];
  events: RunEventInput[];
  state: ExecutionState;
  /** The node ids the run continues at (their steps take the fork as input). */
  continuesAt: string[];
  /** The agent node that runs next on the fork, or null when none does directly. */
  nextAgentNodeId: string | null;
  /** The chunks the fork keeps, edits applied. */
  prefix: Chunk[];
  /** Approvals the original run had decided after its checkpoint: the fork applies the same decision, unasked. */
  carried: CarriedDecision[];
  /** Approvals the fork asks again: undecided in the original, or about the fork's own session. */
  askedAgain: AskedApproval[];
  /** Steps of other branches taken from the original's record (fork-replay.ts), and the sessions they add. */
  replayed: ReplayedStep[];
  replayedSessions: SessionInput[];
}

/** An approval the original decided that the fork applies as it was decided. */
export interface CarriedDecision {
  nodeId: string;
  /** The original run's interrupt (the fork's step reads the decision from it). */
  interruptId: string;
  decision: InterruptDecision["kind"];
}

/** An approval the fork asks again, and why. */
export interface AskedApproval {
  nodeId: string;
  reason: "undecided" | "fork_input";
}

async function requireForkableSession(database: Database, origin: ForkOrigin): Promise<SessionRecord> {
  const session = await getSession(database, origin.sessionId);
  if (session === null) throw new RathError("not_found", `session ${origin.sessionId} not found`);
  if (session.runId !== origin.runId) {
    throw new RathError("invalid_argument", `session ${origin.sessionId} belongs to run ${session.runId}, not to run ${origin.runId}`);
  }
  if (origin.chunkIndex >= session.chunkCount) {
    throw new RathError(
      "invalid_argument",
      `chunkIndex ${origin.chunkIndex} is out of range: session ${session.id} has ${session.chunkCount} chunk(s) (indices 0 to ${session.chunkCount - 1})`,
    );
  }
  const replayOf = extra(session.lineage, REPLAY_OF_SESSION);
  if (typeof replayOf === "string") {
    throw new RathError(
      "invalid_argument",
      `session ${session.id} was replayed from session ${replayOf} of run ${String(extra(session.lineage, REPLAY_FROM_RUN))} when this run was forked (its steps did not run here); fork from that session instead`,
    );
  }
  if (session.nodeId === null) {
    throw new RathError("invalid_argument", `session ${session.id} has no recorded step (an imported run); only sessions of runs executed here can be forked`);
  }
  return session;
}

/** The first `run.step.completed` of the session's node after the session was created: the step that made it. */
async function producingStep(database: Database, session: SessionRecord): Promise<ProducingStep> {
  const rows = await database.client.runEvent.findMany({
    where: { runId: session.runId, type: "run.step.completed", seq: { gt: session.createdSeq } },
    orderBy: { seq: "asc" },
    take: 500,
  });
  for (const row of rows) {
    const parsed = StepCompletedPayload.safeParse(JSON.parse(row.payload));
    if (parsed.success && parsed.data.node_id === session.nodeId) {
      return { nodeId: parsed.data.node_id, stepSeq: parsed.data.step_seq, inputs: parsed.data.inputs, outputs: parsed.data.outputs };
    }
  }
  throw new RathError("invalid_argument", `session ${session.id} was made by a step of node '${session.nodeId}' that was never committed; fork from a session of a completed step`);
}

/** The prefix the fork keeps: chunks 0..chunkIndex, plus the recorded results of tool calls made at the last one. */
async function forkPrefix(database: Database, session: SessionRecord, chunkIndex: number): Promise<Chunk[]> {
  const rows = (await readSessionChunks(database, session.id, { toIndex: session.chunkCount })) ?? [];
  const chunks = rows.map((row) => row.chunk);
  const prefix = chunks.slice(0, chunkIndex + 1);
  const last = prefix[prefix.length - 1];
  if (last?.kind === "assistant" && last.payload.tool_calls) {
    const ids = new Set(last.payload.tool_calls.map((call) => call.id));
    for (let index = chunkIndex + 1; index < chunks.length; index += 1) {
      const chunk = chunks[index] as Chunk;
      if (chunk.kind !== "tool_result" || !ids.has(chunk.payload.tool_call_id)) break;
      prefix.push(chunk);
    }
  }
  return prefix;
}

/** Applies the edits to the prefix; returns the edited chunks and the first index that differs (prefix length if none). */
function applyEdits(prefix: readonly Chunk[], origin: ForkOrigin, sessionId: string): { chunks: Chunk[]; firstEdited: number; edited: number[] } {
  const chunks = [...prefix];
  const edited: number[] = [];
  for (const edit of origin.toolResults) {
    const chunk = chunks[edit.chunkIndex];
    if (chunk === undefined) {
      throw new RathError("invalid_argument", `toolResults: chunk ${edit.chunkIndex} is after the fork point (the fork keeps chunks 0 to ${chunks.length - 1} of session ${sessionId})`);
    }
    if (chunk.kind !== "tool_result") throw new RathError("invalid_argument", `toolResults: chunk ${edit.chunkIndex} of session ${sessionId} is a ${chunk.kind} chunk, not a tool_result`);
    const evidence = chunk.meta.evidence === undefined ? undefined : { ...chunk.meta.evidence, ok: true, error_kind: undefined };
    const meta = { ...chunk.meta, at: new Date().toISOString(), ...(evidence === undefined ? {} : { evidence: JSON.parse(JSON.stringify(evidence)) as typeof evidence }) };
    chunks[edit.chunkIndex] = { kind: "tool_result", payload: { ...chunk.payload, content: edit.content }, meta };
    edited.push(edit.chunkIndex);
  }
  if (origin.input !== undefined) {
    const at = chunks.findIndex((chunk) => chunk.kind === "user");
    if (at < 0) throw new RathError("invalid_argument", `input: the fork keeps no user chunk of session ${sessionId} to carry the changed input; fork from a later chunk`);
    const chunk = chunks[at] as Extract<Chunk, { kind: "user" }>;
    chunks[at] = { kind: "user", payload: { content: origin.input }, meta: { ...chunk.meta, at: new Date().toISOString() } };
    edited.push(at);
  }
  return { chunks, firstEdited: edited.length === 0 ? chunks.length : Math.min(...edited), edited: [...new Set(edited)].sort((a, b) => a - b) };
}

/** Replaces session `from` by `to` wherever the state refers to it. */
function substitute(state: ExecutionState, from: string, to: string): ExecutionState {
  const swap = (id: string): string => (id === from ? to : id);
  return {
    ...state,
    ready: state.ready.map((step) => ({ ...step, inputs: step.inputs.map(swap) })),
    suspended: state.suspended.map((step) => ({ ...step, inputs: step.inputs.map(swap) })),
    joins: Object.fromEntries(Object.entries(state.joins).map(([node, buffer]) => [node, Object.fromEntries(Object.entries(buffer).map(([edge, id]) => [edge, swap(id)]))])),
  };
}

async function checkpointState(database: Database, runId: string, seq: number, plan: Plan): Promise<ExecutionState> {
  if (seq === 0) return initialExecutionState(plan);
  const checkpoint = await getCheckpoint(database, runId, seq);
  if (checkpoint === null) throw new RathError("invalid_argument", `run ${runId} has no checkpoint ${seq} to fork from`);
  return parseExecutionState(checkpoint.state, `checkpoint ${seq} of run ${runId}`);
}

/**
 * The approvals the original was suspended on at the checkpoint the fork starts from. One the original decided since
 * (on the same, unchanged session) is carried over: the step becomes ready with the original's interrupt, so the fork
 * applies that decision without asking. One still undecided, or whose input is the fork's own session (its content may
 * differ), is asked again in the new run.
 */
async function carryApprovals(
  database: Database,
  state: ExecutionState,
  forkId: string,
): Promise<{ state: ExecutionState; carried: CarriedDecision[]; askedAgain: AskedApproval[] }> {
  const carried: CarriedDecision[] = [];
  const askedAgain: AskedApproval[] = [];
  const ready: ExecutionState["ready"] = [];
  for (const { nodeId, inputs, interruptId } of state.suspended) {
    if (inputs.includes(forkId)) {
      askedAgain.push({ nodeId, reason: "fork_input" });
      ready.push({ nodeId, inputs });
      continue;
    }
    const record = await getInterrupt(database, interruptId);
    if (record?.status === "decided" && record.decision !== null) {
      carried.push({ nodeId, interruptId, decision: record.decision.kind });
      ready.push({ nodeId, inputs, interruptId });
    } else {
      askedAgain.push({ nodeId, reason: "undecided" });
      ready.push({ nodeId, inputs });
    }
  }
  // Carried decisions run first, as a resumed run takes its decided steps first.
  const decidedFirst = [...ready.filter((step) => step.interruptId !== undefined), ...state.ready, ...ready.filter((step) => step.interruptId === undefined)];
  return { state: { ...state, ready: decidedFirst, suspended: [] }, carried, askedAgain };
}

/** Replays what the original recorded of the steps that do not depend on the fork (nothing when its plan no longer compiles). */
async function replayRecorded(database: Database, plan: Plan, runId: string, forkCheckpointSeq: number, state: ExecutionState, forkSessionId: string): Promise<SiblingReplay> {
  const original = await getRun(database, runId);
  const loaded = original === null ? null : await revisionPlan(database, original.revisionId);
  if (loaded === null || "problem" in loaded) return { state, sessions: [], events: [], replayed: [] };
  return replaySiblings(database, { originalRunId: runId, originalPlan: loaded.plan, forkCheckpointSeq, plan, state, forkSessionId });
}

/**
 * Computes what a forked run starts from (reads only; nothing is written). Refuses with `not_found` (unknown session)
 * or `invalid_argument` (chunk out of range, an edit that does not fit, nothing that continues, a node the plan lacks).
 */
export async function forkSeed(database: Database, plan: Plan, origin: ForkOrigin): Promise<ForkSeed> {
  const session = await requireForkableSession(database, origin);
  const step = await producingStep(database, session);
  if (session.lineage.lineage_kind === "leaf_system") {
    throw new RathError("invalid_argument", `session ${session.id} is the prompt of agent node '${step.nodeId}'; fork from a chunk of its conversation instead`);
  }
  const prefix = await forkPrefix(database, session, origin.chunkIndex);
  const { chunks, firstEdited, edited } = applyEdits(prefix, origin, session.id);
  const isOutput = step.outputs.includes(session.id);
  const lastChunk = prefix.length === session.chunkCount;
  const producer = plan.nodes[step.nodeId]?.node;
  const within = producer?.type === "agent" && !(isOutput && lastChunk);
  const forkId = newSessionId();
  let state: ExecutionState;
  if (within) {
    const before = await checkpointState(database, origin.runId, step.stepSeq - 1, plan);
    const position = before.ready.findIndex((ready) => ready.nodeId === step.nodeId);
    if (position < 0) throw new RathError("internal", `checkpoint ${step.stepSeq - 1} of run ${origin.runId} has no ready step of node '${step.nodeId}'`);
    const rest = before.ready.filter((_, index) => index !== position);
    state = { ...before, ready: [{ nodeId: step.nodeId, inputs: [forkId] }, ...rest] };
  } else {
    const after = substitute(await checkpointState(database, origin.runId, step.stepSeq, plan), session.id, forkId);
    state = after;
  }
  const approvals = await carryApprovals(database, state, forkId);
  state = approvals.state;
  const checkpointSeq = within ? step.stepSeq - 1 : step.stepSeq;
  const replay = await replayRecorded(database, plan, origin.runId, checkpointSeq, state, forkId);
  state = replay.state;
  const timeline = await forkTimelineEvents(database, {
    originalRunId: origin.runId,
    checkpointSeq,
    replacedSessionId: within ? null : session.id,
    forkSessionId: forkId,
    branches: replay.replayed,
  });
  const continuesAt = state.ready.filter((ready) => ready.inputs.includes(forkId)).map((ready) => ready.nodeId);
  const waitingJoins = Object.entries(state.joins).filter(([, buffer]) => Object.values(buffer).includes(forkId)).map(([node]) => node);
  if (continuesAt.length === 0 && waitingJoins.length === 0) {
    throw new RathError(
      "invalid_argument",
      `nothing runs after chunk ${origin.chunkIndex} of session ${session.id} (node '${step.nodeId}' hands it to no further step); fork from an earlier chunk`,
    );
  }
  for (const ready of state.ready) {
    if (plan.nodes[ready.nodeId] === undefined) throw new RathError("invalid_argument", `the chosen revision has no node '${ready.nodeId}', where the fork continues`);
  }
  for (const node of Object.keys(state.joins)) {
    if (plan.nodes[node] === undefined) throw new RathError("invalid_argument", `the chosen revision has no merge node '${node}', where the fork continues`);
  }
  const lineage: Lineage = {
    parent_session_ids: [session.id],
    lineage_operator: "Session.fork",
    lineage_kind: "op_fork",
    lineage_extras: [
      ["fork.at_chunk", chunks.length],
      ["fork.from_run", origin.runId],
      ...(edited.length === 0 ? [] : [["fork.edited_chunks", edited] as [string, unknown]]),
    ],
  };
  const meta: SessionMeta = { id: forkId, placement: session.placement, lineage, usage: null, provider: null, pending: [], chunkCount: chunks.length };
  const sessions: Record<string, SessionMeta> = {};
  for (const id of referencedSessionIds(state)) {
    const known = id === forkId ? meta : state.sessions[id];
    if (known === undefined) throw new RathError("internal", `checkpoint of run ${origin.runId} refers to session ${id} without its metadata`);
    sessions[id] = known;
  }
  state = { ...state, sessions };
  const row: SessionInput = {
    id: forkId,
    nodeId: step.nodeId,
    lineage,
    placement: session.placement,
    chunkCount: chunks.length,
    inheritedChunkCount: firstEdited,
    base: firstEdited > 0 ? { sessionId: session.id, chunkCount: firstEdited } : null,
  };
  const ownChunks = chunks.slice(firstEdited).map((chunk, offset) => ({ sessionId: forkId, index: firstEdited + offset, chunk }));
  const nextAgentNodeId = continuesAt.find((nodeId) => plan.nodes[nodeId]?.node.type === "agent") ?? null;
  const events: RunEventInput[] = [
    { type: "session.created", payload: { session_id: forkId, lineage, chunk_count: chunks.length, node_id: step.nodeId } },
    ...replay.events,
    ...timeline,
    {
      type: "run.forked",
      payload: {
        from_run_id: origin.runId,
        session_id: session.id,
        chunk_index: origin.chunkIndex,
        fork_session_id: forkId,
        kept_chunks: chunks.length,
        edited_chunks: edited,
        continues_at: continuesAt,
        replayed_steps: state.steps,
        carried_decisions: approvals.carried.map((carried) => ({ node_id: carried.nodeId, interrupt_id: carried.interruptId, decision: carried.decision })),
        asked_again: approvals.askedAgain.map((asked) => ({ node_id: asked.nodeId, reason: asked.reason })),
        replayed: replay.replayed.map((replayed) => ({ node_id: replayed.nodeId, from_step_seq: replayed.fromStepSeq, outputs: replayed.outputs })),
      },
    },
  ];
  return {
    session: row,
    chunks: ownChunks,
    events,
    state,
    continuesAt,
    nextAgentNodeId,
    prefix: chunks,
    carried: approvals.carried,
    askedAgain: approvals.askedAgain,
    replayedSessions: replay.sessions,
    replayed: replay.replayed,
  };
}
