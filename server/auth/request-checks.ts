/**
 * Transport checks every request passes before anything else looks at it (API routes, tRPC and pages alike):
 *
 * - **Host** — on a loopback studio only loopback host names are served, so a page on `evil.example` whose DNS
 *   answer was switched to 127.0.0.1 (DNS rebinding) gets a 403 instead of the studio. Only the `Host` header
 *   counts; `X-Forwarded-Host` and friends are ignored.
 * - **Cross-site** — a state-changing request (anything but GET/HEAD/OPTIONS) that carries an `Origin` must come
 *   from the studio's own origin (`Origin: null` is refused), and a `Sec-Fetch-Site` other than `same-origin` /
 *   `none` is refused: 403. A request with a bearer key skips this (a browser cannot add that header cross-site
 *   without a CORS preflight, which the studio never grants). Requests without `Origin` come from non-browser
 *   clients (curl, scripts): browsers send `Origin` on every cross-origin POST.
 * - **Content type** — state-changing requests must say one of the route's media types (`application/json` for
 *   the JSON API and tRPC, so tRPC's FormData and octet-stream inputs are refused): 415 otherwise. A cross-site
 *   `text/plain` POST — the one that needs no preflight — fails the cross-site check first: 403.
 */
import { RathError } from "../../runtime/errors";
import { normalizeHostname, type AccessPolicy } from "./access-policy";

const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/** True for methods that may change state (everything but GET, HEAD and OPTIONS). */
export function isStateChanging(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** `Authorization: Bearer <token>`'s token, or null. */
export function bearerTokenOf(request: Pick<Request, "headers">): string | null {
  const header = request.headers.get("authorization");
  if (header === null) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
  return match === null ? null : (match[1] as string);
}

/** The host name and port of a `Host` header value (`localhost:3000`, `[::1]:3000`), or null when malformed. */
export function parseHostHeader(value: string): { hostname: string; port: string | null } | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]/@]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (match === null) return null;
  return { hostname: normalizeHostname(match[1] as string), port: match[2] ?? null };
}

/**
 * The Host the request was sent to: the `Host` header (Node's HTTP server refuses requests without one), or the
 * URL's host for requests made in-process (tests, server components), which have no header.
 */
export function hostOf(request: Request): string | null {
  return request.headers.get("host") ?? (URL.canParse(request.url) ? new URL(request.url).host : null);
}

/** Refuses a request whose Host header names a host this server does not serve (DNS rebinding). */
export function checkHost(request: Request, policy: AccessPolicy): void {
  if (policy.allowedHostnames === null) return;
  const header = hostOf(request);
  const host = header === null ? null : parseHostHeader(header);
  if (host === null) throw new RathError("forbidden", `the request has ${header === null ? "no Host header" : `a malformed Host header ${JSON.stringify(header)}`}`);
  if (!policy.allowedHostnames.has(host.hostname)) {
    throw new RathError(
      "forbidden",
      `this studio answers only to ${[...policy.allowedHostnames].join(", ")}, not to host '${host.hostname}' (DNS-rebinding protection); add the name to RATH_ALLOWED_HOSTS if you reach the studio through it`,
    );
  }
}

function defaultPort(protocol: string): string {
  return protocol === "https:" ? "443" : "80";
}

/** True when `origin` (an Origin header value) names the host and port the request was sent to. */
export function isSameOrigin(origin: string, request: Request): boolean {
  if (!URL.canParse(origin)) return false;
  const parsed = new URL(origin);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  const host = parseHostHeader(hostOf(request) ?? "");
  if (host === null) return false;
  const originPort = parsed.port || defaultPort(parsed.protocol);
  const hostPort = host.port ?? defaultPort(parsed.protocol);
  return normalizeHostname(parsed.hostname) === host.hostname && originPort === hostPort;
}

/** Refuses a state-changing request that a browser sent from another site. */
export function checkCrossSite(request: Request): void {
  if (!isStateChanging(request.method) || bearerTokenOf(request) !== null) return;
  const origin = request.headers.get("origin");
  if (origin !== null && !isSameOrigin(origin, request)) {
    throw new RathError("forbidden", `cross-site request refused: Origin ${JSON.stringify(origin)} is not this studio's origin`);
  }
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") {
    throw new RathError("forbidden", `cross-site request refused: Sec-Fetch-Site is '${site}'`);
  }
}

/** The media type of a Content-Type header (`application/json; charset=utf-8` -> `application/json`). */
export function mediaTypeOf(request: Request): string | null {
  const header = request.headers.get("content-type");
  if (header === null) return null;
  return (header.split(";", 1)[0] as string).trim().toLowerCase() || null;
}

/** Refuses a state-changing request whose body is not one of `accepted` media types. */
export function checkContentType(request: Request, accepted: readonly string[]): void {
  if (!isStateChanging(request.method)) return;
  const found = mediaTypeOf(request);
  if (found === null || !accepted.includes(found)) {
    throw new RathError("unsupported_media_type", `expected content-type ${accepted.join(" or ")}; found ${found === null ? "none" : found}`);
  }
}

/** What a route accepts as a state-changing body. */
export interface RequestCheckOptions {
  /** Media types a state-changing request may carry (default: application/json). */
  contentTypes?: readonly string[];
}

/** Host, cross-site and content-type checks in that order; throws a RathError (403, 403, 415). */
export function checkRequest(request: Request, policy: AccessPolicy, options: RequestCheckOptions = {}): void {
  checkHost(request, policy);
  checkCrossSite(request);
  checkContentType(request, options.contentTypes ?? ["application/json"]);
}
