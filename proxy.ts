/**
 * Next.js proxy (formerly middleware) in front of every page: the transport checks the API routes make
 * themselves (server/auth/request-checks.ts: DNS-rebinding host check, cross-site refusal for anything but
 * GET/HEAD), and sign-in (server/auth/page-access.ts): on a studio that requires it, a page needs a principal —
 * resolved exactly as the API does (session cookie or API key, server/auth/resolve-principal.ts) — or the browser is
 * redirected to /sign-in (a non-GET request gets 401). The proxy runs in the Node.js runtime and shares the
 * process's one database handle (server/services/shared-database.ts keeps it on globalThis). API routes are not
 * matched here: each one goes through server/api/http/api-route.ts or the tRPC handler, which make the same
 * checks and answer in the API's JSON error shape.
 */
import { NextResponse, type NextRequest } from "next/server";
import { isRathError } from "./runtime/errors";
import { currentAccessPolicy } from "./server/auth/access-policy";
import { pageNeedsPrincipal, signInPathFor } from "./server/auth/page-access";
import { SIGN_IN_REQUIRED } from "./server/auth/principal";
import { checkCrossSite, checkHost } from "./server/auth/request-checks";
import { resolvePrincipal } from "./server/auth/resolve-principal";
import { hasValidPercentEncoding, malformedPathResponse } from "./server/api/http/path-encoding";
import { sharedDatabase } from "./server/services/shared-database";

function plainText(status: number, message: string): NextResponse {
  return new NextResponse(`${message}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

/** Refuses pages on a foreign Host and cross-site state-changing requests; sends strangers to sign in. */
export async function proxy(request: NextRequest): Promise<NextResponse | Response> {
  // API paths come here only for this: Next.js fails to decode a malformed %-escape in a route parameter before
  // the route's own handler runs; answer in the API's JSON error shape instead. The route checks everything else.
  if (request.nextUrl.pathname.startsWith("/api/")) {
    return hasValidPercentEncoding(request.nextUrl.pathname) ? NextResponse.next() : malformedPathResponse(request.nextUrl.pathname);
  }
  const policy = currentAccessPolicy();
  try {
    checkHost(request, policy);
    checkCrossSite(request);
  } catch (error) {
    if (!isRathError(error)) throw error;
    return plainText(403, error.message);
  }
  if (!pageNeedsPrincipal(policy, request.nextUrl.pathname)) return NextResponse.next();
  const principal = await resolvePrincipal(request, policy, await sharedDatabase());
  if (principal !== null) return NextResponse.next();
  if (request.method !== "GET" && request.method !== "HEAD") return plainText(401, SIGN_IN_REQUIRED);
  const target = new URL(signInPathFor(`${request.nextUrl.pathname}${request.nextUrl.search}`), request.url);
  const response = NextResponse.redirect(target, 307);
  response.headers.set("cache-control", "no-store");
  return response;
}

export const config = {
  matcher: ["/((?!_next/static/|_next/image/|favicon\\.ico$).*)"],
};
