/**
 * Who may see the studio's pages (proxy.ts asks before every page): where sign-in is required, a page needs a
 * principal (the same resolvePrincipal the API uses), except the pages one signs in with. A browser without one is
 * sent to /sign-in with the page it asked for in `next`; a non-GET request gets a 401. A share page
 * (`/share/<token>`) needs no principal: its token is the credential, checked by the page itself (404 when dead).
 */
import type { AccessPolicy } from "./access-policy";

/** Pages served without a principal: signing in, and the first-run page (which 404s unless it may be used). */
export const PUBLIC_PAGE_PATHS: readonly string[] = ["/sign-in", "/setup"];

/** Pages that carry their own credential: a share link's token (server/auth/share-links.ts) is checked by the page. */
const CREDENTIAL_PAGE = /^\/share\/[^/]+\/?$/;

/** Files served without a principal (no data in them). */
const PUBLIC_FILE = /^\/(icon\.svg|favicon\.ico|robots\.txt)$/;

/** True when `pathname` needs no principal even where sign-in is required. */
export function isPublicPage(pathname: string): boolean {
  return PUBLIC_PAGE_PATHS.includes(pathname.replace(/\/+$/, "") || "/") || PUBLIC_FILE.test(pathname) || CREDENTIAL_PAGE.test(pathname);
}

/** True when the proxy must resolve a principal before serving `pathname`. */
export function pageNeedsPrincipal(policy: AccessPolicy, pathname: string): boolean {
  return policy.signInRequired && !isPublicPage(pathname);
}

/**
 * A safe `next` target: a path on this studio (`/runs/run_1?x=1`); anything else (another origin, `//evil`,
 * `/\evil`, a scheme) becomes `/`, so the sign-in page cannot be used to send people elsewhere.
 */
export function safeNextPath(value: string | null | undefined): string {
  if (value === null || value === undefined || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  if (/[\u0000-\u001f]/.test(value)) return "/";
  return isPublicPage(value.split("?", 1)[0] ?? "/") ? "/" : value;
}

/** The sign-in URL that brings the person back to `pathWithQuery` afterwards. */
export function signInPathFor(pathWithQuery: string): string {
  const next = safeNextPath(pathWithQuery);
  return next === "/" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(next)}`;
}
