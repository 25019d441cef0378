/**
 * Workflow templates: the gallery (`list`) and `create`, which saves a template as a new workflow, running on the
 * provider it names (a configured one; default the scripted demo provider).
 */
import { z } from "zod";
import { createFromTemplate, listTemplates } from "../../services/template-catalog";
import { revisionView, workflowView } from "../../services/views";
import { procedure, router } from "../trpc";
import { strictInput } from "../strict-input";

/** The `templates` router. */
export const templatesRouter = router({
  list: procedure.query(() => listTemplates()),
  create: procedure
    .input(strictInput(z.object({ slug: z.string().min(1).max(100), name: z.string().trim().min(1).max(200).optional(), provider: z.string().trim().min(1).max(100).optional() })))
    .mutation(async ({ ctx, input }) => {
      const detail = await createFromTemplate(ctx.database, input);
      return { workflow: workflowView(detail.workflow), head: detail.head === null ? null : revisionView(detail.head) };
    }),
});
