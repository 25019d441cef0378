/**
 * The wrapper of the few HTTP routes a caller without credentials must reach: signing in and the first-run
 * account (app/api/auth/*). They pass every check of the API's door but the principal (api-door.ts): Host and
 * cross-site (403), content type (415), body size (413); errors have the JSON error shape. Each handler decides
 * for itself what a stranger may do (sign-in checks a password; setup exists only on loopback before any account).
 * The handler is marked `access: "public"`, so the router walk (server/api/access.test.ts) knows which routes
 * are meant to answer without credentials, and checks that no other one does.
 */
import { currentAccessPolicy, type AccessPolicy } from "../../auth/access-policy";
import { requestServices } from "../context";
import { admitBody, checkTransport } from "./admit-request";
import type { ApiServices } from "./api-door";
import type { RouteHandler } from "./api-route";
import { errorResponse } from "./json-response";

/** What a public route's handler receives. */
export interface PublicApiCall {
  readonly request: Request;
  readonly services: ApiServices;
  readonly policy: AccessPolicy;
}

/** A route handler reachable without credentials. */
export type PublicRouteHandler = RouteHandler<Record<string, never>> & { readonly access: "public" };

/** Wraps a public route: the door's transport checks, no principal, the JSON error shape. */
export function publicApiRoute(
  options: { readonly name: string; readonly services?: () => Promise<ApiServices> },
  handle: (call: PublicApiCall) => Promise<Response>,
): PublicRouteHandler {
  const handler = async (request: Request): Promise<Response> => {
    try {
      const policy = currentAccessPolicy();
      checkTransport(request, { policy });
      const admitted = await admitBody(request, { policy });
      const services = await (options.services ?? requestServices)();
      return await handle({ request: admitted, services, policy });
    } catch (error) {
      return errorResponse(error, options.name);
    }
  };
  return Object.assign(handler, { access: "public" as const });
}
