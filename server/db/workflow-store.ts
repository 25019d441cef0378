/**
 * Workflows and their immutable revisions. Saving a revision names the revision it was edited from; it must
 * be the workflow's current head (or none for the first), so two editors cannot silently overwrite each other.
 * Workflows are soft-deleted (`deletedAt`), because runs keep referring to their revisions.
 */
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import type { Database, TransactionClient } from "./database";
import type { Workflow as WorkflowRow, WorkflowRevision as RevisionRow } from "./generated/sqlite/client";
import { AnyJson, fromJsonText, toJsonText } from "./json-text";
import { newSortableId } from "./sortable-id";
import { rowReader, utcTimestamp } from "./raw-sql";

/** A stored workflow (without its revisions). */
export interface WorkflowRecord {
  id: string;
  name: string;
  description: string;
  headRevisionId: string | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

/** A stored, immutable revision: the spec and layout as JSON, their hash and the compiled plan's id. */
export interface RevisionRecord {
  id: string;
  workflowId: string;
  number: number;
  spec: unknown;
  layout: unknown;
  specSha256: string;
  planId: string;
  parentRevisionId: string | null;
  message: string;
  createdAt: Date;
}

function toWorkflowRecord(row: WorkflowRow): WorkflowRecord {
  return { ...row };
}

function toRevisionRecord(row: RevisionRow): RevisionRecord {
  return {
    id: row.id,
    workflowId: row.workflowId,
    number: row.number,
    spec: fromJsonText(row.spec, AnyJson, `spec of revision ${row.id}`),
    layout: fromJsonText(row.layout, AnyJson, `layout of revision ${row.id}`),
    specSha256: row.specSha256,
    planId: row.planId,
    parentRevisionId: row.parentRevisionId,
    message: row.message,
    createdAt: row.createdAt,
  };
}

/** Input of `createWorkflow`. */
export const CreateWorkflowInput = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(5000).default(""),
});
export type CreateWorkflowInput = z.input<typeof CreateWorkflowInput>;

/** Creates an empty workflow (no revision yet). */
export async function createWorkflow(database: Database, input: CreateWorkflowInput): Promise<WorkflowRecord> {
  const parsed = CreateWorkflowInput.parse(input);
  return database.transaction(async (transaction) =>
    toWorkflowRecord(await transaction.workflow.create({ data: { id: newSortableId("wf"), ...parsed } })),
  );
}

/** Input of `updateWorkflow`: only the fields given change (no defaults, unlike `CreateWorkflowInput`). */
export const UpdateWorkflowInput = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(5000).optional(),
});
export type UpdateWorkflowInput = z.input<typeof UpdateWorkflowInput>;

/** Renames a workflow and/or changes its description; a field that is not given keeps its value. */
export async function updateWorkflow(database: Database, workflowId: string, changes: UpdateWorkflowInput): Promise<WorkflowRecord> {
  const parsed = UpdateWorkflowInput.parse(changes);
  const data = Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== undefined)) as { name?: string; description?: string };
  return database.transaction(async (transaction) => {
    const current = await readLiveWorkflow(transaction, workflowId);
    if (Object.keys(data).length === 0) return toWorkflowRecord(current);
    return toWorkflowRecord(await transaction.workflow.update({ where: { id: workflowId }, data }));
  });
}

async function readLiveWorkflow(transaction: TransactionClient, workflowId: string): Promise<WorkflowRow> {
  const row = await transaction.workflow.findUnique({ where: { id: workflowId } });
  if (row === null || row.deletedAt !== null) throw new RathError("not_found", `workflow ${workflowId} not found`);
  return row;
}

/** One workflow, or null (deleted ones only with `includeDeleted`). */
export async function getWorkflow(database: Database, workflowId: string, options: { includeDeleted?: boolean } = {}): Promise<WorkflowRecord | null> {
  const row = await database.client.workflow.findUnique({ where: { id: workflowId } });
  if (row === null || (row.deletedAt !== null && options.includeDeleted !== true)) return null;
  return toWorkflowRecord(row);
}

/** Workflows, most recently updated first (deleted ones only with `includeDeleted`). */
export async function listWorkflows(
  database: Database,
  options: { includeDeleted?: boolean; limit?: number; offset?: number } = {},
): Promise<WorkflowRecord[]> {
  const rows = await database.client.workflow.findMany({
    where: options.includeDeleted === true ? {} : { deletedAt: null },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: Math.min(Math.max(options.limit ?? 100, 1), 500),
    skip: Math.max(options.offset ?? 0, 0),
  });
  return rows.map(toWorkflowRecord);
}

/** Soft-deletes a workflow; its revisions and runs stay readable. Deleting twice is refused with `not_found`. */
export async function softDeleteWorkflow(database: Database, workflowId: string, now: Date = new Date()): Promise<WorkflowRecord> {
  return database.transaction(async (transaction) => {
    await readLiveWorkflow(transaction, workflowId);
    return toWorkflowRecord(await transaction.workflow.update({ where: { id: workflowId }, data: { deletedAt: now } }));
  });
}

/** Input of `saveRevision`; `parentRevisionId` must be the workflow's current head (null for the first). */
export const SaveRevisionInput = z.object({
  workflowId: z.string().min(1),
  parentRevisionId: z.string().min(1).nullable(),
  spec: z.unknown(),
  layout: z.unknown().default({}),
  specSha256: z.string().regex(/^[0-9a-f]{64}$/, "a lowercase hex sha256"),
  planId: z.string().min(1),
  message: z.string().max(2000).default(""),
});
export type SaveRevisionInput = z.input<typeof SaveRevisionInput>;

/** Saves a new immutable revision (number = last + 1) and makes it the head. */
export async function saveRevision(database: Database, input: SaveRevisionInput): Promise<RevisionRecord> {
  return database.transaction((transaction) => saveRevisionIn(transaction, input));
}

/**
 * `saveRevision` inside the caller's transaction. `keepUpdatedAt` leaves the workflow's `updatedAt` as it was (a
 * start-up upgrade step is not the user's edit, so the home page's most-recently-updated order stays).
 */
export async function saveRevisionIn(transaction: TransactionClient, input: SaveRevisionInput, options: { keepUpdatedAt?: boolean } = {}): Promise<RevisionRecord> {
  const parsed = SaveRevisionInput.parse(input);
  const workflow = await readLiveWorkflow(transaction, parsed.workflowId);
  if (workflow.headRevisionId !== parsed.parentRevisionId) {
    throw new RathError(
      "conflict",
      `workflow ${parsed.workflowId} changed since it was loaded: expected head revision ${parsed.parentRevisionId ?? "none"}, found ${
        workflow.headRevisionId ?? "none"
      }`,
      { details: { workflowId: parsed.workflowId, expected: parsed.parentRevisionId, actual: workflow.headRevisionId } },
    );
  }
  const row = await insertNextRevision(transaction, parsed);
  // The head moves only if it is still the parent (PostgreSQL read committed: another save may have won).
  const moved = await transaction.workflow.updateMany({
    where: { id: parsed.workflowId, headRevisionId: parsed.parentRevisionId },
    data: options.keepUpdatedAt === true ? { headRevisionId: row.id, updatedAt: workflow.updatedAt } : { headRevisionId: row.id },
  });
  if (moved.count !== 1) {
    throw new RathError("conflict", `workflow ${parsed.workflowId} got another revision concurrently; reload and save again`);
  }
  return toRevisionRecord(row);
}

/** A live workflow's head revision, inside the caller's transaction; null for a deleted workflow or one without revisions. */
export async function headRevisionIn(transaction: TransactionClient, workflowId: string): Promise<RevisionRecord | null> {
  const workflow = await transaction.workflow.findUnique({ where: { id: workflowId }, select: { headRevisionId: true, deletedAt: true } });
  if (workflow === null || workflow.deletedAt !== null || workflow.headRevisionId === null) return null;
  const row = await transaction.workflowRevision.findUnique({ where: { id: workflow.headRevisionId } });
  return row === null ? null : toRevisionRecord(row);
}

/** One revision, or null (a raw read: a worker reads the revision of every run it claims). */
export async function getRevision(database: Database, revisionId: string): Promise<RevisionRecord | null> {
  const [row] = await rowReader(database)<{
    id: string;
    workflow_id: string;
    number: number | bigint;
    spec: string;
    layout: string;
    spec_sha256: string;
    plan_id: string;
    parent_revision_id: string | null;
    message: string;
    created_at: string | Date;
  }>(
    `SELECT "id", "workflow_id", "number", "spec", "layout", "spec_sha256", "plan_id", "parent_revision_id", "message", CAST("created_at" AS TEXT) AS "created_at"
      FROM "workflow_revisions" WHERE "id" = ?`,
    revisionId,
  );
  if (row === undefined) return null;
  return toRevisionRecord({
    id: row.id,
    workflowId: row.workflow_id,
    number: Number(row.number),
    spec: row.spec,
    layout: row.layout,
    specSha256: row.spec_sha256,
    planId: row.plan_id,
    parentRevisionId: row.parent_revision_id,
    message: row.message,
    createdAt: utcTimestamp(row.created_at),
  });
}

/** The revisions of a workflow, newest first. */
export async function listRevisions(database: Database, workflowId: string, options: { limit?: number } = {}): Promise<RevisionRecord[]> {
  const rows = await database.client.workflowRevision.findMany({
    where: { workflowId },
    orderBy: { number: "desc" },
    take: Math.min(Math.max(options.limit ?? 100, 1), 500),
  });
  return rows.map(toRevisionRecord);
}

/**
 * The newest revision whose spec hash is `specSha256`, of a workflow that is not deleted, or null (a headless
 * caller's inline spec reuses it instead of creating another workflow).
 */
export async function findRevisionBySpecHash(database: Database, specSha256: string): Promise<RevisionRecord | null> {
  return findRevisionBySpecHashIn(database.client, specSha256);
}

/** `findRevisionBySpecHash` inside the caller's transaction. */
export async function findRevisionBySpecHashIn(transaction: TransactionClient, specSha256: string): Promise<RevisionRecord | null> {
  const row = await transaction.workflowRevision.findFirst({
    where: { specSha256, workflow: { deletedAt: null } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return row === null ? null : toRevisionRecord(row);
}

/**
 * A revision that does not become the head: the edited spec a forked run executes (a changed prompt or model). The
 * workflow's revision of the same spec hash is reused, so forking twice with the same edit adds one revision.
 */
export async function saveSideRevision(database: Database, input: SaveRevisionInput): Promise<RevisionRecord> {
  const parsed = SaveRevisionInput.parse(input);
  return database.transaction(async (transaction) => {
    await readLiveWorkflow(transaction, parsed.workflowId);
    const same = await transaction.workflowRevision.findFirst({ where: { workflowId: parsed.workflowId, specSha256: parsed.specSha256 }, orderBy: { number: "desc" } });
    if (same !== null) return toRevisionRecord(same);
    const row = await insertNextRevision(transaction, parsed);
    return toRevisionRecord(row);
  });
}

/** Creates a workflow whose first revision (and head) is `revision`, inside the caller's transaction; returns its id. */
export async function insertWorkflowWithRevision(
  transaction: TransactionClient,
  workflow: CreateWorkflowInput,
  revision: Omit<SaveRevisionInput, "workflowId" | "parentRevisionId">,
): Promise<string> {
  const row = await transaction.workflow.create({ data: { id: newSortableId("wf"), ...CreateWorkflowInput.parse(workflow) } });
  const first = await insertNextRevision(transaction, SaveRevisionInput.parse({ ...revision, workflowId: row.id, parentRevisionId: null }));
  await transaction.workflow.update({ where: { id: row.id }, data: { headRevisionId: first.id } });
  return row.id;
}

/** Inserts `parsed` as the workflow's next revision number (inside the caller's transaction). */
async function insertNextRevision(transaction: TransactionClient, parsed: z.output<typeof SaveRevisionInput>): Promise<RevisionRow> {
  const last = await transaction.workflowRevision.findFirst({ where: { workflowId: parsed.workflowId }, orderBy: { number: "desc" }, select: { number: true } });
  return transaction.workflowRevision.create({
    data: {
      id: newSortableId("rev"),
      workflowId: parsed.workflowId,
      number: (last?.number ?? 0) + 1,
      spec: toJsonText(parsed.spec ?? null, "revision spec", { redact: false }),
      layout: toJsonText(parsed.layout ?? {}, "revision layout", { redact: false }),
      specSha256: parsed.specSha256,
      planId: parsed.planId,
      parentRevisionId: parsed.parentRevisionId,
      message: parsed.message,
    },
  });
}
