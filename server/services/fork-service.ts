/**
 * "Fork from here" as the API offers it (`runs.forkFrom`, POST /api/v1/runs/:id/fork, `rath run --fork-from`):
 * checks the request against the stored run (session, chunk index, edits) without writing anything, saves the
 * edited spec as a side revision when the next agent's prompt or model changes, and queues the new run, whose
 * input carries the fork descriptor the engine seeds it from (server/engine/run-fork.ts). Also the cross-run
 * lineage the run view shows: where a run was forked from, and the runs forked from it.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { isRathError, RathError } from "../../runtime/errors";
import { canonicalJson } from "../../runtime/workflow-spec/canonical-json";
import type { Database } from "../db/database";
import { crossRunForks } from "../db/run-forks";
import { createRun, getRun } from "../db/run-store";
import type { SessionRecord } from "../db/session-record";
import { getSession } from "../db/session-store";
import { listRevisions, saveSideRevision } from "../db/workflow-store";
import { inputText } from "../engine/run-executor";
import { forkOriginOf, forkSeed, ToolResultEdit, type AskedApproval, type CarriedDecision, type ForkOrigin, type ForkSeed } from "../engine/run-fork";
import type { Plan } from "../engine/spec/plan";
import { runTimeout, settingsOfSpec } from "../engine/run-deadline";
import { assertRunInputSize } from "./payload-limits";
import type { RunExecutor } from "./run-executor";
import { requireRun } from "./run-service";
import { runView, type RunView } from "./views";
import { compileOrRefuse, requireRevision } from "./workflow-service";

/** What may change before the forked run continues. */
export const ForkEdits = z.strictObject({
  /** The run's input (the text of the first user chunk the fork keeps). */
  input: z.string().max(200_000).optional(),
  /** The next agent (the one that continues from the fork): its system prompt, model or provider. */
  agent: z
    .strictObject({
      instructions: z.string().max(200_000).optional(),
      model: z.string().min(1).max(200).optional(),
      provider: z.string().min(1).max(200).optional(),
    })
    .refine((agent) => Object.values(agent).some((value) => value !== undefined), { message: "name at least one of instructions, model, provider" })
    .optional(),
  /** Recorded tool results to replace (tool_result chunks at or before the fork point). */
  toolResults: z.array(ToolResultEdit).max(100).optional(),
  /** Another revision of the same workflow to continue with (default: the original run's). */
  revisionId: z.string().min(1).optional(),
});
export type ForkEdits = z.infer<typeof ForkEdits>;

/** Input of `forkFromChunk`. */
export const ForkFromRequest = z.object({
  sessionId: z.string().min(1),
  chunkIndex: z.number().int().nonnegative(),
  edits: ForkEdits.default({}),
  idempotencyKey: z.string().min(1).max(200).optional(),
});
export type ForkFromRequest = z.input<typeof ForkFromRequest>;

/** A queued fork, with where it continues. */
export interface ForkedRun {
  run: RunView;
  created: boolean;
  fork: { fromRunId: string; sessionId: string; chunkIndex: number; continuesAt: string[]; nextAgentNodeId: string | null };
}

type SpecNode = { id: string; type: string; config: Record<string, unknown> };

/** The spec with the agent node's prompt, model or provider changed. */
function withAgentEdits(spec: unknown, nodeId: string, agent: NonNullable<ForkEdits["agent"]>): unknown {
  const copy = structuredClone(spec) as { nodes: SpecNode[] };
  const node = copy.nodes.find((candidate) => candidate.id === nodeId);
  if (node === undefined) throw new RathError("internal", `agent node '${nodeId}' is not in the spec`);
  node.config = {
    ...node.config,
    ...(agent.instructions === undefined ? {} : { instructions: agent.instructions }),
    ...(agent.model === undefined ? {} : { model: agent.model }),
    ...(agent.provider === undefined ? {} : { provider: agent.provider }),
  };
  return copy;
}

/**
 * Queues a run forked from `sessionId` at `chunkIndex` with the edits applied. Everything is checked first (`not_found`,
 * `invalid_argument`, `invalid_workflow`); a refused request stores nothing. The same idempotency key returns the
 * first fork.
 */
export async function forkFromChunk(database: Database, executor: RunExecutor, request: ForkFromRequest, expectedRunId?: string): Promise<ForkedRun> {
  const parsed = ForkFromRequest.parse(request);
  const session = await getSession(database, parsed.sessionId);
  if (session === null) throw new RathError("not_found", `session ${parsed.sessionId} not found`);
  if (expectedRunId !== undefined && session.runId !== expectedRunId) {
    throw new RathError("invalid_argument", `session ${parsed.sessionId} belongs to run ${session.runId}, not to run ${expectedRunId}`);
  }
  const original = await requireRun(database, session.runId);
  const edits = parsed.edits;
  const revision = await requireRevision(database, original.workflowId, edits.revisionId ?? original.revisionId);
  let { spec, plan } = compileOrRefuse(revision.spec);
  const origin: ForkOrigin = {
    runId: original.id,
    sessionId: session.id,
    chunkIndex: parsed.chunkIndex,
    ...(edits.input === undefined ? {} : { input: edits.input }),
    toolResults: edits.toolResults ?? [],
  };
  const seed = await forkSeed(database, plan, origin);
  let revisionId = revision.id;
  if (edits.agent !== undefined) {
    if (seed.nextAgentNodeId === null) {
      throw new RathError("invalid_argument", `edits.agent: no agent continues from chunk ${parsed.chunkIndex} of session ${session.id} (next: ${seed.continuesAt.join(", ") || "a merge"})`);
    }
    ({ spec, plan } = compileOrRefuse(withAgentEdits(spec, seed.nextAgentNodeId, edits.agent)));
    if (plan.hash !== revision.specSha256) {
      const side = await saveSideRevision(database, {
        workflowId: original.workflowId,
        parentRevisionId: revision.id,
        spec,
        layout: revision.layout,
        specSha256: plan.hash,
        planId: plan.id,
        message: `Fork of run ${original.id}: agent '${seed.nextAgentNodeId}' edited`,
      });
      revisionId = side.id;
    }
  }
  const text = edits.input ?? inputText(original.input);
  const input = { ...(text === undefined ? {} : { text }), fork: origin };
  assertRunInputSize(input);
  const fingerprint = createHash("sha256").update(canonicalJson({ sessionId: parsed.sessionId, chunkIndex: parsed.chunkIndex, edits })).digest("hex");
  const { run, created } = await createRun(database, {
    workflowId: original.workflowId,
    revisionId,
    planHash: plan.hash,
    input,
    priority: original.priority,
    ...(original.tokenBudget === null ? {} : { tokenBudget: original.tokenBudget }),
    ...(parsed.idempotencyKey === undefined ? {} : { idempotencyKey: parsed.idempotencyKey, requestFingerprint: fingerprint }),
    ...runTimeout(undefined, settingsOfSpec(spec)),
  });
  if (created) executor.wake(run.id);
  return {
    run: runView(run),
    created,
    fork: { fromRunId: original.id, sessionId: session.id, chunkIndex: parsed.chunkIndex, continuesAt: seed.continuesAt, nextAgentNodeId: seed.nextAgentNodeId },
  };
}

/** One run forked from another, as the run view lists it. */
export interface RunForkLink {
  runId: string;
  status: RunView["status"] | null;
  sessionId: string;
  chunkIndex: number | null;
  createdAt: string | null;
}

/** The cross-run lineage of a run: where it was forked from (or null) and the runs forked from it. */
export interface RunLineageView {
  forkedFrom: { runId: string; sessionId: string; chunkIndex: number } | null;
  forks: RunForkLink[];
}

/** Where the run was forked from, and the runs forked from its sessions. */
export async function runLineage(database: Database, runId: string): Promise<RunLineageView> {
  const run = await requireRun(database, runId);
  const origin = forkOriginOf(run.input);
  const edges = await crossRunForks(database, runId);
  const forks: RunForkLink[] = [];
  for (const edge of edges) {
    const forked = await getRun(database, edge.runId);
    const forkedOrigin = forked === null ? null : forkOriginOf(forked.input);
    // Only the fork's root session is the edge: a fork node's output the fork replayed also has a parent here.
    if (forkedOrigin !== null && (forkedOrigin.runId !== runId || forkedOrigin.sessionId !== edge.parentSessionId)) continue;
    forks.push({
      runId: edge.runId,
      status: forked?.status ?? null,
      sessionId: edge.parentSessionId,
      chunkIndex: forkedOrigin?.sessionId === edge.parentSessionId ? forkedOrigin.chunkIndex : null,
      createdAt: forked?.createdAt.toISOString() ?? null,
    });
  }
  return {
    forkedFrom: origin === null ? null : { runId: origin.runId, sessionId: origin.sessionId, chunkIndex: origin.chunkIndex },
    forks,
  };
}

/** Input of `forkPreview`: the chunk, and the revision the fork would continue with (default: the original run's). */
export const ForkPreviewRequest = z.object({ sessionId: z.string().min(1), chunkIndex: z.number().int().nonnegative(), revisionId: z.string().min(1).optional() });
export type ForkPreviewRequest = z.input<typeof ForkPreviewRequest>;

/** What the fork dialog shows before the user edits: where the run continues, what can change, and the defaults. */
export interface ForkPreview {
  runId: string;
  sessionId: string;
  chunkIndex: number;
  /** The revision previewed: where the fork continues and the next agent are that revision's nodes. */
  revisionId: string;
  /** Chunks the fork keeps (the chunk, and the recorded results of tool calls made at it). */
  keptChunks: number;
  continuesAt: string[];
  nextAgent: { nodeId: string; name: string; instructions: string; model: string | null; provider: string | null } | null;
  /** The run input's text as the fork keeps it (the first user chunk), or null when the prefix has none. */
  input: string | null;
  /** The last 20 tool results the fork keeps, editable. */
  toolResults: Array<{ chunkIndex: number; name: string; content: string; ok: boolean }>;
  revisions: Array<{ id: string; number: number; message: string; createdAt: string; current: boolean }>;
  /** For a chunk of a merge's output: the merged session and the branch the chunk came from (empty otherwise). */
  sides: ForkSide[];
  /** Approvals the original decided that the fork applies without asking, and those it asks again (and why). */
  approvals: { carried: CarriedDecision[]; askedAgain: AskedApproval[] };
  /**
   * Steps of other branches the fork takes from the original's record (same node, same input sessions, unchanged
   * node): no model call, no tool run (server/engine/fork-replay.ts). Node ids, in the order they are replayed.
   */
  replayed: string[];
  /** Other steps that run live because the original never ran them on these inputs (it had not got there, or failed). */
  alsoRuns: string[];
}

/** One place a chunk of a merge's output can be forked from: the merged session itself, or the branch the chunk came from. */
export interface ForkSide {
  role: "merged" | "branch";
  sessionId: string;
  chunkIndex: number;
  /** The node that made that session (the merge, or the branch's last step). */
  nodeId: string | null;
  /** Chunks the fork keeps, and where it continues. */
  keptChunks: number;
  continuesAt: string[];
  /** For the merged session: how many chunks of each merged branch the fork keeps, in merge order. */
  parts: Array<{ sessionId: string; nodeId: string | null; kept: number; total: number }>;
}

/**
 * For a chunk of a merge's output (chunks = its parents' chunks, in merge order): the merged session at that chunk and
 * the parent session the chunk came from at its own index, each only when a fork from it is possible. Empty otherwise.
 */
async function mergeSides(database: Database, plan: Plan, session: SessionRecord, chunkIndex: number, merged: ForkSeed): Promise<ForkSide[]> {
  if (session.lineage.lineage_kind !== "op_merge" || session.lineage.parent_session_ids.length < 2) return [];
  const parents: SessionRecord[] = [];
  for (const id of session.lineage.parent_session_ids) {
    const parent = await getSession(database, id);
    if (parent === null) return [];
    parents.push(parent);
  }
  if (parents.reduce((sum, parent) => sum + parent.chunkCount, 0) !== session.chunkCount) return [];
  const parts: ForkSide["parts"] = [];
  let offset = 0;
  let branch: ForkSide | null = null;
  for (const parent of parents) {
    const kept = Math.max(0, Math.min(parent.chunkCount, merged.prefix.length - offset));
    parts.push({ sessionId: parent.id, nodeId: parent.nodeId, kept, total: parent.chunkCount });
    if (chunkIndex >= offset && chunkIndex < offset + parent.chunkCount) {
      try {
        const seed = await forkSeed(database, plan, { runId: session.runId, sessionId: parent.id, chunkIndex: chunkIndex - offset, toolResults: [] });
        branch = { role: "branch", sessionId: parent.id, chunkIndex: chunkIndex - offset, nodeId: parent.nodeId, keptChunks: seed.prefix.length, continuesAt: seed.continuesAt, parts: [] };
      } catch (error) {
        // A branch that cannot be forked (a prompt session, an inner merge) is not offered: the merged session still is.
        if (!isRathError(error) || !error.isUserError) throw error;
      }
    }
    offset += parent.chunkCount;
  }
  if (branch === null) return [];
  return [{ role: "merged", sessionId: session.id, chunkIndex, nodeId: session.nodeId, keptChunks: merged.prefix.length, continuesAt: merged.continuesAt, parts }, branch];
}

/**
 * The dialog's defaults for a fork at `chunkIndex` of `sessionId` continuing with `revisionId` (default: the original
 * run's revision): the next agent's prompt and model are that revision's, as `forkFromChunk` would edit them. Refuses
 * as `forkFromChunk` would.
 */
export async function forkPreview(database: Database, request: ForkPreviewRequest): Promise<ForkPreview> {
  const parsed = ForkPreviewRequest.parse(request);
  const session = await getSession(database, parsed.sessionId);
  if (session === null) throw new RathError("not_found", `session ${parsed.sessionId} not found`);
  const original = await requireRun(database, session.runId);
  const revision = await requireRevision(database, original.workflowId, parsed.revisionId ?? original.revisionId);
  const { plan } = compileOrRefuse(revision.spec);
  const seed = await forkSeed(database, plan, { runId: original.id, sessionId: session.id, chunkIndex: parsed.chunkIndex, toolResults: [] });
  const sides = await mergeSides(database, plan, session, parsed.chunkIndex, seed);
  const agentNode = seed.nextAgentNodeId === null ? undefined : plan.nodes[seed.nextAgentNodeId]?.node;
  const nextAgent =
    agentNode?.type === "agent"
      ? {
          nodeId: agentNode.id,
          name: agentNode.config.name,
          instructions: agentNode.config.instructions ?? "",
          model: agentNode.config.model ?? null,
          provider: agentNode.config.provider ?? null,
        }
      : null;
  const firstUser = seed.prefix.find((chunk) => chunk.kind === "user");
  const toolResults = seed.prefix
    .map((chunk, index) => ({ chunk, index }))
    .filter((entry) => entry.chunk.kind === "tool_result")
    .slice(-20)
    .map(({ chunk, index }) => {
      const result = chunk as Extract<typeof chunk, { kind: "tool_result" }>;
      return { chunkIndex: index, name: result.payload.name, content: result.payload.content, ok: result.meta.evidence?.ok ?? true };
    });
  const revisions = (await listRevisions(database, original.workflowId, { limit: 30 })).map((entry) => ({
    id: entry.id,
    number: entry.number,
    message: entry.message,
    createdAt: entry.createdAt.toISOString(),
    current: entry.id === original.revisionId,
  }));
  return {
    runId: original.id,
    sessionId: session.id,
    chunkIndex: parsed.chunkIndex,
    revisionId: revision.id,
    keptChunks: seed.prefix.length,
    continuesAt: seed.continuesAt,
    nextAgent,
    input: firstUser?.kind === "user" ? firstUser.payload.content : null,
    toolResults,
    revisions,
    sides,
    approvals: { carried: seed.carried, askedAgain: seed.askedAgain },
    replayed: seed.replayed.map((step) => step.nodeId),
    alsoRuns: [...new Set(seed.state.ready.filter((ready) => !ready.inputs.includes(seed.session.id) && ready.interruptId === undefined).map((ready) => ready.nodeId))].filter(
      (nodeId) => !seed.askedAgain.some((asked) => asked.nodeId === nodeId),
    ),
  };
}
