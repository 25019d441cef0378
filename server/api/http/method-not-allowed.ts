/**
 * 405 answers in the API's JSON error shape. Next.js answers a method a route does not export with an empty
 * 405; each route under app/api/v1 exports this handler for the methods it does not serve instead.
 */
import { jsonResponse } from "./json-response";

/** A route handler answering 405 `{"error":{"code":"method_not_allowed","message"}}` with an `Allow` header. */
export function methodNotAllowed(route: string, allowed: readonly string[]): (request: Request) => Promise<Response> {
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : [])].join(", ");
  return async (request) =>
    jsonResponse(
      405,
      { error: { code: "method_not_allowed", message: `${request.method} ${route} is not allowed; expected ${allowed.join(" or ")}` } },
      { allow },
    );
}

/** Whether every segment of a request path is valid percent-encoding (`decodeURIComponent` accepts it). */
export function hasValidPercentEncoding(pathname: string): boolean {
  try {
    for (const segment of pathname.split("/")) decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/** 400 `{"error":{"code":"invalid_argument","message"}}` for a path whose percent-encoding is malformed. */
export function malformedPathResponse(pathname: string): Response {
  return jsonResponse(400, {
    error: { code: "invalid_argument", message: `the request path ${JSON.stringify(pathname)} has malformed percent-encoding (e.g. '%' not followed by two hex digits)` },
  });
}
