/**
 * Settings: model providers (list, upsert, delete, testConnection) and the model price table (list, upsert,
 * delete). API keys are write-only: answers carry `hasApiKey`, never the key; `testConnection` makes one real
 * request from the server and returns the answer or the provider's error.
 */
import { z } from "zod";
import { testProviderConnection } from "../../services/provider-connection-test";
import { deleteModelPrice, deleteProvider, listModelPrices, listProviders, upsertModelPrice, UpsertModelPriceRequest, upsertProvider, UpsertProviderRequest } from "../../services/settings-service";
import { procedure, router } from "../trpc";
import { strictInput } from "../strict-input";

/** The `settings` router. */
export const settingsRouter = router({
  providers: router({
    list: procedure.query(({ ctx }) => listProviders(ctx.database)),
    upsert: procedure.input(strictInput(UpsertProviderRequest)).mutation(({ ctx, input }) => upsertProvider(ctx.database, input)),
    delete: procedure.input(strictInput(z.object({ name: z.string().min(1) }))).mutation(({ ctx, input }) => deleteProvider(ctx.database, input.name)),
    testConnection: procedure.input(strictInput(z.object({ name: z.string().min(1).max(100) }))).mutation(({ ctx, input }) => testProviderConnection(ctx.database, input.name)),
  }),
  modelPrices: router({
    list: procedure.query(({ ctx }) => listModelPrices(ctx.database)),
    upsert: procedure.input(strictInput(UpsertModelPriceRequest)).mutation(({ ctx, input }) => upsertModelPrice(ctx.database, input)),
    delete: procedure.input(strictInput(z.object({ model: z.string().min(1) }))).mutation(({ ctx, input }) => deleteModelPrice(ctx.database, input.model)),
  }),
});
