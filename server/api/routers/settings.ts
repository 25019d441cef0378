/** Provider settings: list, upsert, delete. API keys are write-only: answers carry `hasApiKey`, never the key. */
import { z } from "zod";
import { deleteProvider, listProviders, upsertProvider, UpsertProviderRequest } from "../../services/settings-service";
import { procedure, router } from "../trpc";

/** The `settings` router. */
export const settingsRouter = router({
  providers: router({
    list: procedure.query(({ ctx }) => listProviders(ctx.database)),
    upsert: procedure.input(UpsertProviderRequest).mutation(({ ctx, input }) => upsertProvider(ctx.database, input)),
    delete: procedure.input(z.object({ name: z.string().min(1) })).mutation(({ ctx, input }) => deleteProvider(ctx.database, input.name)),
  }),
});
