/**
 * Request paths whose percent-encoding is malformed (`%E0%A4%A`, `%zz`): Next.js cannot decode such a route
 * parameter; the proxy and every API route answer them in the API's JSON error shape instead.
 */
import { jsonResponse } from "./json-response";

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
