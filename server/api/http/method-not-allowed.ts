/**
 * 405 answers in the API's JSON error shape. Next.js answers a method a route does not export with an empty
 * 405; each route under app/api/v1 exports this handler for the methods it does not serve instead.
 */
import { apiRoute } from "./api-route";
import { jsonResponse } from "./json-response";

/**
 * A route handler answering 405 `{"error":{"code":"method_not_allowed","message"}}` with an `Allow` header. It goes
 * through the API's door first (api-route.ts), as every route does: a request without credentials is still 401,
 * a cross-site or foreign-host one 403, and only an admitted request learns which methods the route serves.
 */
export function methodNotAllowed(route: string, allowed: readonly string[]): (request: Request) => Promise<Response> {
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : [])].join(", ");
  return apiRoute({ name: `${allowed.join("|")} ${route} (other methods)` }, async ({ request }) =>
    jsonResponse(
      405,
      { error: { code: "method_not_allowed", message: `${request.method} ${route} is not allowed; expected ${allowed.join(" or ")}` } },
      { allow },
    ),
  );
}
