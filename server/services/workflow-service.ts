/**
 * Workflows and revisions as the API offers them: a revision is saved only when its spec validates (nothing is
 * written otherwise), and it records the spec's canonical sha256 and the compiled plan's id, so the same spec
 * always gives the same hash and plan id whatever its key order or canvas layout.
 */
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import type { Database } from "../db/database";
import {
  createWorkflow as storeCreateWorkflow,
  findRevisionBySpecHash,
  getRevision,
  getWorkflow as storeGetWorkflow,
  listRevisions as storeListRevisions,
  listWorkflows as storeListWorkflows,
  saveRevision as storeSaveRevision,
  softDeleteWorkflow,
  updateWorkflow as storeUpdateWorkflow,
  type RevisionRecord,
  type WorkflowRecord,
} from "../db/workflow-store";
import { compileWorkflow } from "../engine/spec/compile";
import type { Plan } from "../engine/spec/plan";
import type { Problem } from "../../runtime/workflow-spec/problems";
import { validateWorkflowSpec } from "../../runtime/workflow-spec/validate";
import { WorkflowLayout } from "../../runtime/workflow-spec/workflow-layout";
import { assertSpecSize } from "./payload-limits";

/** Input of `createWorkflow`: a name, a description and optionally a first spec (saved as revision 1). */
export const CreateWorkflowRequest = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(5000).default(""),
  spec: z.unknown().optional(),
  layout: WorkflowLayout.optional(),
});
export type CreateWorkflowRequest = z.input<typeof CreateWorkflowRequest>;

/** Input of `saveRevision`. Without `parentRevisionId` the revision follows the current head (headless clients). */
export const SaveRevisionRequest = z.object({
  workflowId: z.string().min(1),
  parentRevisionId: z.string().min(1).nullable().optional(),
  spec: z.unknown(),
  layout: WorkflowLayout.default({ nodes: {} }),
  message: z.string().max(2000).default(""),
});
export type SaveRevisionRequest = z.input<typeof SaveRevisionRequest>;

/** A workflow with its head revision (null before the first save). */
export interface WorkflowDetail {
  workflow: WorkflowRecord;
  head: RevisionRecord | null;
}

/** What validation says about a spec: ok with the plan's id and hash, or every problem. */
export type SpecCheck = { ok: true; planId: string; specSha256: string } | { ok: false; problems: Problem[] };

/** Validates a spec without saving anything (a spec past RATH_MAX_SPEC_BYTES is `payload_too_large`). */
export function checkSpec(spec: unknown): SpecCheck {
  assertSpecSize(spec);
  const result = validateWorkflowSpec(spec);
  if (!result.ok) return { ok: false, problems: result.problems };
  const plan = compileWorkflow(result.spec);
  return { ok: true, planId: plan.id, specSha256: plan.hash };
}

/**
 * Validates and compiles a spec; an invalid one is refused with `invalid_workflow` carrying every problem in
 * `details.problems` (the API returns them as `problems`); a spec past RATH_MAX_SPEC_BYTES is `payload_too_large`.
 */
export function compileOrRefuse(spec: unknown): { spec: unknown; plan: Plan } {
  assertSpecSize(spec);
  const result = validateWorkflowSpec(spec);
  if (!result.ok) {
    const first = result.problems[0];
    const where = first?.nodeId ? ` (node ${first.nodeId})` : first?.edgeId ? ` (edge ${first.edgeId})` : "";
    throw new RathError(
      "invalid_workflow",
      `the workflow spec has ${result.problems.length} problem(s); first: ${first?.message ?? "unknown"}${where}`,
      { details: { problems: result.problems } },
    );
  }
  return { spec: result.spec, plan: compileWorkflow(result.spec) };
}

/** Creates a workflow, and its first revision when a spec is given (an invalid spec writes nothing). */
export async function createWorkflow(database: Database, request: CreateWorkflowRequest): Promise<WorkflowDetail> {
  const parsed = CreateWorkflowRequest.parse(request);
  const compiled = parsed.spec === undefined ? null : compileOrRefuse(parsed.spec);
  const workflow = await storeCreateWorkflow(database, { name: parsed.name, description: parsed.description });
  if (compiled === null) return { workflow, head: null };
  const head = await storeSaveRevision(database, {
    workflowId: workflow.id,
    parentRevisionId: null,
    spec: compiled.spec,
    layout: parsed.layout ?? { nodes: {} },
    specSha256: compiled.plan.hash,
    planId: compiled.plan.id,
  });
  return { workflow: { ...workflow, headRevisionId: head.id }, head };
}

/** Saves a new immutable revision of a live workflow; an invalid spec is refused and nothing is written. */
export async function saveRevision(database: Database, request: SaveRevisionRequest): Promise<RevisionRecord> {
  const parsed = SaveRevisionRequest.parse(request);
  const { spec, plan } = compileOrRefuse(parsed.spec);
  const workflow = await requireWorkflow(database, parsed.workflowId);
  return storeSaveRevision(database, {
    workflowId: workflow.id,
    parentRevisionId: parsed.parentRevisionId === undefined ? workflow.headRevisionId : parsed.parentRevisionId,
    spec,
    layout: parsed.layout,
    specSha256: plan.hash,
    planId: plan.id,
    message: parsed.message,
  });
}

/** A live workflow, or `not_found`. */
export async function requireWorkflow(database: Database, workflowId: string): Promise<WorkflowRecord> {
  const workflow = await storeGetWorkflow(database, workflowId);
  if (workflow === null) throw new RathError("not_found", `workflow ${workflowId} not found`);
  return workflow;
}

/** A workflow with its head revision. */
export async function getWorkflowDetail(database: Database, workflowId: string): Promise<WorkflowDetail> {
  const workflow = await requireWorkflow(database, workflowId);
  const head = workflow.headRevisionId === null ? null : await getRevision(database, workflow.headRevisionId);
  return { workflow, head };
}

/** A revision by id, or null (pages that show what a run ran, such as the run view). */
export async function findRevision(database: Database, revisionId: string): Promise<RevisionRecord | null> {
  return getRevision(database, revisionId);
}

/** One revision of a workflow, or `not_found`. */
export async function requireRevision(database: Database, workflowId: string, revisionId: string): Promise<RevisionRecord> {
  const revision = await getRevision(database, revisionId);
  if (revision === null || revision.workflowId !== workflowId) {
    throw new RathError("not_found", `revision ${revisionId} of workflow ${workflowId} not found`);
  }
  return revision;
}

/** Live workflows, most recently updated first. */
export async function listWorkflows(database: Database, options: { limit?: number; offset?: number } = {}): Promise<WorkflowRecord[]> {
  return storeListWorkflows(database, options);
}

/** A workflow's revisions, newest first (`not_found` for an unknown or deleted workflow). */
export async function listRevisions(database: Database, workflowId: string, options: { limit?: number } = {}): Promise<RevisionRecord[]> {
  await requireWorkflow(database, workflowId);
  return storeListRevisions(database, workflowId, options);
}

/** Input of `updateWorkflow`: a new name and/or description (the spec changes only through revisions). */
export const UpdateWorkflowRequest = z
  .object({
    workflowId: z.string().min(1),
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(5000).optional(),
  })
  .refine((request) => request.name !== undefined || request.description !== undefined, {
    message: "expected a name or a description to change",
    path: ["name"],
  });
export type UpdateWorkflowRequest = z.input<typeof UpdateWorkflowRequest>;

/** Renames a live workflow or changes its description. */
export async function updateWorkflow(database: Database, request: UpdateWorkflowRequest): Promise<WorkflowRecord> {
  const { workflowId, ...changes } = UpdateWorkflowRequest.parse(request);
  return storeUpdateWorkflow(database, workflowId, changes);
}

/** Soft-deletes a workflow; its revisions and runs stay readable. */
export async function deleteWorkflow(database: Database, workflowId: string): Promise<WorkflowRecord> {
  return softDeleteWorkflow(database, workflowId);
}

/**
 * The workflow and revision a headless caller's inline spec runs as: the newest live revision with the same
 * spec hash, else a new workflow named after the spec with that spec as revision 1. Running the same spec again
 * therefore reuses one workflow (and its idempotency keys).
 */
export async function ensureRevisionForSpec(database: Database, spec: unknown): Promise<{ workflow: WorkflowRecord; revision: RevisionRecord; plan: Plan }> {
  const compiled = compileOrRefuse(spec);
  const existing = await findRevisionBySpecHash(database, compiled.plan.hash);
  if (existing !== null) return { workflow: await requireWorkflow(database, existing.workflowId), revision: existing, plan: compiled.plan };
  const name = compiled.plan.name.trim() === "" ? "Untitled workflow" : compiled.plan.name;
  const created = await createWorkflow(database, { name, spec: compiled.spec });
  return { workflow: created.workflow, revision: created.head as RevisionRecord, plan: compiled.plan };
}

/** Input of `duplicateWorkflow`: the workflow to copy and, optionally, the copy's name. */
export const DuplicateWorkflowRequest = z.object({
  workflowId: z.string().min(1),
  name: z.string().trim().min(1).max(200).optional(),
});
export type DuplicateWorkflowRequest = z.input<typeof DuplicateWorkflowRequest>;

/**
 * Copies a live workflow: a new workflow named "<name> (copy)" (or `name`) with the same description, whose
 * revision 1 holds the original's head spec and layout (no revision when the original has none).
 */
export async function duplicateWorkflow(database: Database, request: DuplicateWorkflowRequest): Promise<WorkflowDetail> {
  const parsed = DuplicateWorkflowRequest.parse(request);
  const { workflow, head } = await getWorkflowDetail(database, parsed.workflowId);
  const name = parsed.name ?? `${workflow.name} (copy)`.slice(0, 200);
  const layout = WorkflowLayout.safeParse(head?.layout);
  return createWorkflow(database, {
    name,
    description: workflow.description,
    ...(head === null ? {} : { spec: head.spec, ...(layout.success ? { layout: layout.data } : {}) }),
  });
}
