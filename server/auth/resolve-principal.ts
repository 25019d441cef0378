/**
 * Resolves the principal of a request (principal.ts). Explicit credentials win and must be valid:
 *
 * - `Authorization` present: it must be `Bearer <a live API key>` (api-keys.ts) — anything else is a 401, even on
 *   a loopback studio that needs no sign-in, so a script with a revoked key learns it at once;
 * - a session cookie (better-auth, accounts.ts): the signed-in person. A forged or expired cookie is a 401 where
 *   sign-in is required; on a loopback studio without sign-in it is ignored (a cookie is sent by the browser on
 *   its own, so a stale one must not lock the local user out);
 * - neither: the local user of a loopback studio without sign-in, else nobody (401).
 *
 * Nothing here reads forwarded headers or the client's address: whether sign-in is needed is the process's access
 * policy alone.
 */
import type { Database } from "../db/database";
import type { AccessPolicy } from "./access-policy";
import { sessionUser } from "./accounts";
import { verifyApiKey } from "./api-keys";
import { ANONYMOUS_LOOPBACK, type Principal } from "./principal";
import { bearerTokenOf } from "./request-checks";

/** What resolvePrincipal reads: a Request or anything with its headers (Next.js's NextRequest, a page's headers()). */
export type RequestLike = Pick<Request, "headers">;

/** The request's principal, or null when it must sign in or its credentials are wrong (the caller answers 401). */
export async function resolvePrincipal(request: RequestLike, policy: AccessPolicy, database: Database): Promise<Principal | null> {
  if (request.headers.has("authorization")) {
    const token = bearerTokenOf(request);
    const key = token === null ? null : await verifyApiKey(database, token);
    return key === null ? null : { kind: "api-key", userId: key.userId, keyId: key.keyId };
  }
  const user = await sessionUser(database, request.headers);
  if (user !== null) return { kind: "user", userId: user.id, email: user.email, name: user.name };
  return policy.signInRequired ? null : ANONYMOUS_LOOPBACK;
}
