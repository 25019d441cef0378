/**
 * Share links of a run: `list`, `create` (the token is returned once), `revoke`. Anyone who may use the studio
 * (the local user, a signed-in person, an API key) manages them; a share link itself may not (principal.ts).
 * Links are read through `/api/share/<token>/trpc` (server/api/http/share-trpc.ts) and the page `/share/<token>`.
 */
import { z } from "zod";
import type { Principal } from "../../auth/principal";
import { createShareLink, listShareLinks, revokeShareLink, ShareExpiry, type ShareLinkView } from "../../auth/share-links";
import { procedure, router } from "../trpc";
import { strictInput } from "../strict-input";

const RunId = z.string().min(1);

/** A link as JSON carries it (times as ISO strings: the API has no transformer). */
function linkJson(link: ShareLinkView): Omit<ShareLinkView, "createdAt" | "expiresAt"> & { createdAt: string; expiresAt: string | null } {
  return { ...link, createdAt: link.createdAt.toISOString(), expiresAt: link.expiresAt?.toISOString() ?? null };
}

function accountOf(principal: Principal | null): string | null {
  return principal?.kind === "user" || principal?.kind === "api-key" ? principal.userId : null;
}

/** The `shareLinks` router. */
export const shareLinksRouter = router({
  list: procedure.input(strictInput(z.object({ runId: RunId }))).query(async ({ ctx, input }) => (await listShareLinks(ctx.database, input.runId)).map(linkJson)),
  create: procedure.input(strictInput(z.object({ runId: RunId, expiry: ShareExpiry }))).mutation(async ({ ctx, input }) => {
    const created = await createShareLink(ctx.database, { runId: input.runId, expiry: input.expiry, createdBy: accountOf(ctx.principal) });
    return { link: linkJson(created.link), token: created.token };
  }),
  revoke: procedure.input(strictInput(z.object({ runId: RunId, linkId: z.string().min(1) }))).mutation(async ({ ctx, input }) => {
    await revokeShareLink(ctx.database, input.runId, input.linkId);
    return { revoked: input.linkId };
  }),
});
