/**
 * The transport half of the API's door (api-door.ts): the checks of server/auth/request-checks.ts before anyone
 * is identified (host, cross-site), and after (content type, then the body read up to its size limit), so
 * handlers get a request whose body is already in memory and known to be small enough, and an unauthenticated
 * caller never gets a large body read.
 */
import type { AccessPolicy } from "../../auth/access-policy";
import { checkContentType, checkCrossSite, checkHost, isStateChanging } from "../../auth/request-checks";
import { payloadLimits } from "../../services/payload-limits";
import { readBoundedBody, withBody, type BodyLimit } from "./bounded-body";

/** How one route admits requests. */
export interface AdmissionOptions {
  readonly policy: AccessPolicy;
  /** Media types a state-changing request may carry (default application/json). */
  readonly contentTypes?: readonly string[];
  /** The body limit; default RATH_MAX_REQUEST_BYTES. `"streamed"`: the handler reads the body itself, with its own limit. */
  readonly bodyLimit?: BodyLimit | "streamed";
}

/** The default limit of a JSON request body (RATH_MAX_REQUEST_BYTES). */
export function jsonRequestLimit(): BodyLimit {
  return { bytes: payloadLimits().requestBytes, what: "the request body", variable: "RATH_MAX_REQUEST_BYTES" };
}

/** Refuses a foreign Host (403) and a cross-site state-changing request (403). */
export function checkTransport(request: Request, options: AdmissionOptions): void {
  checkHost(request, options.policy);
  checkCrossSite(request);
}

/**
 * Checks the content type (415) and reads the body within the limit (413); returns the request to hand on,
 * its body buffered.
 */
export async function admitBody(request: Request, options: AdmissionOptions): Promise<Request> {
  checkContentType(request, options.contentTypes ?? ["application/json"]);
  if (!isStateChanging(request.method) || request.body === null || options.bodyLimit === "streamed") return request;
  return withBody(request, await readBoundedBody(request, options.bodyLimit ?? jsonRequestLimit()));
}
