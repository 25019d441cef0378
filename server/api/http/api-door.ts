/**
 * The door of every API request, tRPC and plain HTTP alike, in this order: host and cross-site checks (403), who is
 * calling (server/auth/resolve-principal.ts; none on a studio that requires sign-in: 401 `unauthenticated`,
 * before any procedure or route is looked up), then the content type (415) and the body within its limit (413).
 */
import { RathError } from "../../../runtime/errors";
import { SIGN_IN_REQUIRED, type Principal } from "../../auth/principal";
import { resolvePrincipal } from "../../auth/resolve-principal";
import type { ApiContext } from "../trpc";
import { admitBody, checkTransport, type AdmissionOptions } from "./admit-request";

/** What the API needs besides the principal: the database and the run executor. */
export type ApiServices = Omit<ApiContext, "principal">;

/** Options of `passDoor`. */
export interface DoorOptions extends AdmissionOptions {
  /** Opens the process's database and executor (awaited inside the door, so a failure maps like any other). */
  readonly services: () => Promise<ApiServices>;
  /**
   * Who is calling, when the route names its own credential (the share-link API reads the token from its path);
   * default: resolvePrincipal (API key, session cookie, or the local user). Null answers 401.
   */
  readonly principal?: (request: Request, services: ApiServices) => Promise<Principal | null>;
}

/** A request that passed the door: its body read, its principal known. */
export interface AdmittedCall {
  readonly request: Request;
  readonly context: ApiContext & { principal: Principal };
}

/** The admitted request and its context, principal included. Throws a RathError: 401, 403, 413 or 415. */
export async function passDoor(request: Request, options: DoorOptions): Promise<AdmittedCall> {
  checkTransport(request, options);
  const services = await options.services();
  const principal = options.principal === undefined ? await resolvePrincipal(request, options.policy, services.database) : await options.principal(request, services);
  if (principal === null) throw new RathError("unauthenticated", SIGN_IN_REQUIRED);
  return { request: await admitBody(request, options), context: { ...services, principal } };
}
