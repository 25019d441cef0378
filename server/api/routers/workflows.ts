/** Workflows and their immutable revisions: list, get, create, duplicate, update, saveRevision, listRevisions, validate, delete (soft). */
import { z } from "zod";
import {
  checkSpec,
  CreateWorkflowRequest,
  createWorkflow,
  deleteWorkflow,
  duplicateWorkflow,
  DuplicateWorkflowRequest,
  getWorkflowDetail,
  listRevisions,
  listWorkflows,
  requireRevision,
  saveRevision,
  SaveRevisionRequest,
  updateWorkflow,
  UpdateWorkflowRequest,
} from "../../services/workflow-service";
import { revisionView, workflowView } from "../../services/views";
import { procedure, router } from "../trpc";
import { strictInput } from "../strict-input";

const WorkflowId = z.object({ workflowId: z.string().min(1) });

/** The `workflows` router. */
export const workflowsRouter = router({
  list: procedure
    .input(strictInput(z.object({ limit: z.number().int().min(1).max(500).default(100), offset: z.number().int().nonnegative().default(0) }).default({ limit: 100, offset: 0 })))
    .query(async ({ ctx, input }) => (await listWorkflows(ctx.database, input)).map(workflowView)),
  get: procedure.input(strictInput(WorkflowId)).query(async ({ ctx, input }) => {
    const detail = await getWorkflowDetail(ctx.database, input.workflowId);
    return { workflow: workflowView(detail.workflow), head: detail.head === null ? null : revisionView(detail.head) };
  }),
  getRevision: procedure.input(strictInput(WorkflowId.extend({ revisionId: z.string().min(1) }))).query(async ({ ctx, input }) =>
    revisionView(await requireRevision(ctx.database, input.workflowId, input.revisionId)),
  ),
  create: procedure.input(strictInput(CreateWorkflowRequest)).mutation(async ({ ctx, input }) => {
    const detail = await createWorkflow(ctx.database, input);
    return { workflow: workflowView(detail.workflow), head: detail.head === null ? null : revisionView(detail.head) };
  }),
  duplicate: procedure.input(strictInput(DuplicateWorkflowRequest)).mutation(async ({ ctx, input }) => {
    const detail = await duplicateWorkflow(ctx.database, input);
    return { workflow: workflowView(detail.workflow), head: detail.head === null ? null : revisionView(detail.head) };
  }),
  update: procedure.input(strictInput(UpdateWorkflowRequest)).mutation(async ({ ctx, input }) => workflowView(await updateWorkflow(ctx.database, input))),
  saveRevision: procedure.input(strictInput(SaveRevisionRequest)).mutation(async ({ ctx, input }) => revisionView(await saveRevision(ctx.database, input))),
  listRevisions: procedure
    .input(strictInput(WorkflowId.extend({ limit: z.number().int().min(1).max(500).default(100) })))
    .query(async ({ ctx, input }) => (await listRevisions(ctx.database, input.workflowId, { limit: input.limit })).map(revisionView)),
  validate: procedure.input(strictInput(z.object({ spec: z.unknown() }))).query(({ input }) => checkSpec(input.spec)),
  delete: procedure.input(strictInput(WorkflowId)).mutation(async ({ ctx, input }) => workflowView(await deleteWorkflow(ctx.database, input.workflowId))),
});
