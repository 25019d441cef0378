/**
 * The caller's account: `me` (who is calling: the local user of a loopback studio, a signed-in person, or a script
 * with an API key) and the person's API keys (`apiKeys.list/create/revoke`: a signed-in person only — principal.ts
 * refuses API keys and the anonymous local user). A new key is returned once, by `create`; lists never carry it.
 */
import { z } from "zod";
import { RathError } from "../../../runtime/errors";
import { ApiKeyName, createApiKey, listApiKeys, revokeApiKey, type ApiKeyView } from "../../auth/api-keys";
import { SHARE_TOKEN_REFUSAL, type Principal } from "../../auth/principal";
import { procedure, router } from "../trpc";
import { strictInput } from "../strict-input";

function personOf(principal: Principal | null): Extract<Principal, { kind: "user" }> {
  // requireAccess + authorize already refused everyone else; this keeps the type honest.
  if (principal?.kind !== "user") throw new RathError("forbidden", "API keys belong to accounts: sign in to create or revoke them");
  return principal;
}

/** A key as JSON carries it (times as ISO strings: the API has no transformer, so the type says what arrives). */
function keyJson(key: ApiKeyView): Omit<ApiKeyView, "createdAt" | "lastUsedAt"> & { createdAt: string; lastUsedAt: string | null } {
  return { ...key, createdAt: key.createdAt.toISOString(), lastUsedAt: key.lastUsedAt?.toISOString() ?? null };
}

/** The `account` router. */
export const accountRouter = router({
  me: procedure.query(async ({ ctx }) => {
    const principal = ctx.principal;
    if (principal === null || principal.kind === "anonymous-loopback") return { kind: "anonymous-loopback" as const, user: null };
    // authorize refuses share links here already; this keeps the type honest.
    if (principal.kind === "share-token") throw new RathError("forbidden", SHARE_TOKEN_REFUSAL);
    const user = await ctx.database.client.authUser.findUnique({ where: { id: principal.userId }, select: { id: true, email: true, name: true } });
    return { kind: principal.kind, user };
  }),
  apiKeys: router({
    list: procedure.query(async ({ ctx }) => (await listApiKeys(ctx.database, personOf(ctx.principal).userId)).map(keyJson)),
    create: procedure.input(strictInput(z.object({ name: ApiKeyName }))).mutation(async ({ ctx, input }) => {
      const created = await createApiKey(ctx.database, personOf(ctx.principal).userId, input.name);
      return { apiKey: keyJson(created.apiKey), key: created.key };
    }),
    revoke: procedure.input(strictInput(z.object({ keyId: z.string().min(1) }))).mutation(async ({ ctx, input }) => {
      await revokeApiKey(ctx.database, personOf(ctx.principal).userId, input.keyId);
      return { revoked: input.keyId };
    }),
  }),
});
