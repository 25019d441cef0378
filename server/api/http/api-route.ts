/**
 * The one wrapper every plain HTTP route in app/api uses: it passes the request through the API's door
 * (api-door.ts: host, cross-site, content type, body size, then the principal: 401 without one), asks
 * `authorize` about the route (403), and maps whatever goes wrong to the JSON error shape
 * `{"error":{"code","message"}}`. Routes stay one line: `export const POST = apiRoute({...}, handler)`.
 */
import { RathError } from "../../../runtime/errors";
import { currentAccessPolicy } from "../../auth/access-policy";
import { authorize } from "../../auth/principal";
import { isStateChanging } from "../../auth/request-checks";
import { requestServices } from "../context";
import type { ApiContext } from "../trpc";
import type { AdmissionOptions } from "./admit-request";
import { passDoor, type ApiServices } from "./api-door";
import { errorResponse } from "./json-response";
import { hasValidPercentEncoding, malformedPathResponse } from "./path-encoding";

/** How a route is served. */
export interface ApiRouteOptions {
  /** `POST /api/v1/runs`: names the route in the server log. */
  readonly name: string;
  /** Media types a state-changing request may carry (default application/json). */
  readonly contentTypes?: readonly string[];
  /** The body limit (default RATH_MAX_REQUEST_BYTES); `"streamed"` when the handler reads the body itself. */
  readonly bodyLimit?: AdmissionOptions["bodyLimit"];
  /** Opens the database and executor (default: the process's shared runtime). */
  readonly services?: () => Promise<ApiServices>;
}

/** What a route handler receives: the admitted request, the API context and the route's params. */
export interface ApiCall<Params> {
  readonly request: Request;
  readonly context: ApiContext;
  readonly params: Params;
}

/** A Next.js route handler (Next.js always passes the segment; tests of routes without params may leave it out). */
export type RouteHandler<Params> = (request: Request, segment?: { params: Promise<Params> }) => Promise<Response>;

/** Wraps a handler with the API's door and error mapping. */
export function apiRoute<Params = Record<string, never>>(options: ApiRouteOptions, handle: (call: ApiCall<Params>) => Promise<Response>): RouteHandler<Params> {
  return async (request, segment) => {
    const pathname = new URL(request.url).pathname;
    if (!hasValidPercentEncoding(pathname)) return malformedPathResponse(pathname);
    try {
      const { request: admitted, context } = await passDoor(request, {
        policy: currentAccessPolicy(),
        services: options.services ?? requestServices,
        ...(options.contentTypes === undefined ? {} : { contentTypes: options.contentTypes }),
        ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
      });
      const refusal = authorize(context.principal, { name: options.name, kind: isStateChanging(request.method) ? "write" : "read" });
      if (refusal !== null) throw new RathError("forbidden", refusal);
      return await handle({ request: admitted, context, params: segment === undefined ? ({} as Params) : await segment.params });
    } catch (error) {
      return errorResponse(error, options.name);
    }
  };
}
