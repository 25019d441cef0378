/**
 * The API of a share page: the same tRPC router at `/api/share/<token>/trpc`, where the caller is the link's
 * `share-token` principal and nothing else (cookies and API keys on the request are ignored, so a signed-in
 * person's own rights never mix with a link's). The token travels in the path because the page's live stream is
 * an EventSource, which cannot send headers. An unknown, revoked or expired token answers 404 before any
 * procedure is looked up; authorize + share-scope.ts then allow only the reads of the link's run.
 */
import { RathError } from "../../../runtime/errors";
import type { Principal } from "../../auth/principal";
import { verifyShareToken } from "../../auth/share-links";
import type { ApiServices } from "./api-door";
import { handleTrpcRequest } from "./trpc-handler";

/** Where a share token's tRPC endpoint is mounted. */
export function shareTrpcEndpoint(token: string): string {
  return `/api/share/${encodeURIComponent(token)}/trpc`;
}

/** The message of a share link that does not work (unknown, revoked and expired look the same). */
export const SHARE_LINK_NOT_FOUND = "this share link does not exist, was revoked, or has expired";

/** The principal of `token`; throws `not_found` when it is not a live link. */
export async function sharePrincipalOf(services: ApiServices, token: string): Promise<Principal> {
  const link = await verifyShareToken(services.database, token);
  if (link === null) throw new RathError("not_found", SHARE_LINK_NOT_FOUND);
  return { kind: "share-token", runId: link.runId, linkId: link.linkId };
}

/** The Next.js handler of `/api/share/[token]/trpc/[trpc]`, marked `access: "share-token"` for the route walk (access.test.ts). */
export function shareTrpcRoute(services: () => Promise<ApiServices>): ((request: Request, segment: { params: Promise<{ token: string }> }) => Promise<Response>) & { readonly access: "share-token" } {
  const handler = async (request: Request, segment: { params: Promise<{ token: string }> }): Promise<Response> => handleShareTrpcRequest(request, (await segment.params).token, services);
  return Object.assign(handler, { access: "share-token" as const });
}

/** Handles one tRPC request made with share link `token`. */
export function handleShareTrpcRequest(request: Request, token: string, services: () => Promise<ApiServices>): Promise<Response> {
  return handleTrpcRequest(request, {
    services,
    endpoint: shareTrpcEndpoint(token),
    principal: (_request, opened) => sharePrincipalOf(opened, token),
  });
}
