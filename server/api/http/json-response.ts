/** JSON responses of the plain HTTP API; errors are mapped by errors.ts (the same mapping tRPC uses). */
import { mapError } from "../errors";

/** A JSON response with the given status. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

/** `{"error":{"code","message", problems?, fieldErrors?}}` with the mapped HTTP status (500s carry no detail). */
export function errorResponse(error: unknown, where: string): Response {
  const mapped = mapError(error, where);
  return jsonResponse(mapped.httpStatus, { error: mapped.body });
}
