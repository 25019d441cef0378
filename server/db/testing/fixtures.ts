/**
 * Test data builders for the store tests: a workflow with one revision, runs, sessions and chunks.
 */
import { createHash } from "node:crypto";
import { makeChunk } from "../../../runtime/session/chunk";
import type { Database } from "../database";
import { claimNext, type Claim } from "../run-lease";
import { createRun, type CreateRunInput } from "../run-store";
import type { RunRecord } from "../run-record";
import type { ChunkInput, SessionInput } from "../session-record";
import { createWorkflow, saveRevision } from "../workflow-store";

/** The plan hash every fixture revision uses. */
export const PLAN_HASH = createHash("sha256").update("plan").digest("hex");

/** A workflow with one revision; returns the ids a run needs. */
export async function seedWorkflow(database: Database, name = "fixture"): Promise<{ workflowId: string; revisionId: string; planHash: string }> {
  const workflow = await createWorkflow(database, { name });
  const spec = { nodes: [{ id: "a" }], edges: [] };
  const revision = await saveRevision(database, {
    workflowId: workflow.id,
    parentRevisionId: null,
    spec,
    specSha256: createHash("sha256").update(JSON.stringify(spec)).digest("hex"),
    planId: `plan_${PLAN_HASH.slice(0, 12)}`,
  });
  return { workflowId: workflow.id, revisionId: revision.id, planHash: PLAN_HASH };
}

/** Creates a queued run on a fresh workflow (or the given one). */
export async function seedRun(
  database: Database,
  overrides: Partial<CreateRunInput> = {},
): Promise<RunRecord> {
  const ids =
    overrides.workflowId !== undefined && overrides.revisionId !== undefined
      ? { workflowId: overrides.workflowId, revisionId: overrides.revisionId, planHash: PLAN_HASH }
      : await seedWorkflow(database);
  const { run } = await createRun(database, { ...ids, input: { question: "why?" }, ...overrides });
  return run;
}

/** A root session (leaf_user) for a step commit. */
export function rootSession(id: string, nodeId = "a"): SessionInput {
  return {
    id,
    nodeId,
    lineage: { parent_session_ids: [], lineage_operator: "Session.create", lineage_kind: "leaf_user", lineage_extras: [] },
    placement: { backend: "local", spec: null },
    chunkCount: 1,
  };
}

/** A session forked or merged from `parents`. */
export function childSession(id: string, parents: string[], kind: "op_fork" | "op_merge" = "op_fork"): SessionInput {
  return {
    id,
    nodeId: "b",
    lineage: { parent_session_ids: parents, lineage_operator: kind === "op_fork" ? "Session.fork" : "Session.merge", lineage_kind: kind, lineage_extras: [["note", 1]] },
    placement: { backend: "local", spec: null },
    usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    chunkCount: 0,
  };
}

/** A user chunk at `index` of `sessionId`. */
export function userChunk(sessionId: string, index: number, text = `message ${index}`): ChunkInput {
  return { sessionId, index, chunk: makeChunk("user", { content: text }, { at: "2026-01-01T00:00:00.000Z" }) };
}

/** A fresh run claimed by `worker`. Runs are claimed one at a time, so the claim takes the run just made. */
export async function claimSeededRun(database: Database): Promise<Claim> {
  const run = await seedRun(database);
  const claim = await claimNext(database, "worker", 60_000);
  if (claim === null || claim.run.id !== run.id) throw new Error("expected to claim the new run");
  return claim;
}

/** The error `promise` rejects with; fails the test when it resolves or rejects with something that is not an Error. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  const caught = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(caught instanceof Error)) throw new Error("expected a rejection");
  return caught;
}
