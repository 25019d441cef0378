/**
 * Next.js proxy (formerly middleware) in front of every page: the transport checks the API routes make
 * themselves (server/auth/request-checks.ts: DNS-rebinding host check, cross-site refusal for anything but
 * GET/HEAD), and sign-in: on a studio that requires it, pages answer 401. API routes are not matched here: each
 * one goes through server/api/http/api-route.ts or the tRPC handler, which make the same checks and answer in
 * the API's JSON error shape.
 */
import { NextResponse, type NextRequest } from "next/server";
import { isRathError } from "./runtime/errors";
import { currentAccessPolicy } from "./server/auth/access-policy";
import { SIGN_IN_REQUIRED } from "./server/auth/principal";
import { checkCrossSite, checkHost } from "./server/auth/request-checks";

function plainText(status: number, message: string): NextResponse {
  return new NextResponse(`${message}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

/** Refuses pages on a foreign Host and cross-site state-changing requests; lets the rest through. */
export function proxy(request: NextRequest): NextResponse {
  const policy = currentAccessPolicy();
  try {
    checkHost(request, policy);
    checkCrossSite(request);
  } catch (error) {
    if (!isRathError(error)) throw error;
    return plainText(403, error.message);
  }
  if (policy.signInRequired) return plainText(401, SIGN_IN_REQUIRED);
  return NextResponse.next();
}

export const config = {
  matcher: ["/((?!api/|_next/static/|_next/image/|favicon\\.ico$).*)"],
};
