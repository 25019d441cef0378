/**
 * Who is calling. Every API request resolves to one principal (or none: 401), and every procedure and route asks
 * `authorize` whether that principal may do what it asks. The kinds:
 *
 * - `anonymous-loopback` — anyone who can reach a studio that listens on loopback without sign-in (the local
 *   user; the access policy decides, never a request header);
 * - `user` — a person signed in through the sign-in page (a session cookie);
 * - `api-key` — a script holding one of a user's API keys (`Authorization: Bearer rath_...`);
 * - `share-token` — whoever holds a read-only share link of one run (share-links.ts); it reaches the API only
 *   through `/api/share/<token>/trpc` and may call only the reads in SHARE_TOKEN_READS, for its own run
 *   (share-scope.ts checks the run id each call names).
 */

/** A caller the studio recognises. */
export type Principal =
  | { readonly kind: "anonymous-loopback" }
  | { readonly kind: "user"; readonly userId: string; readonly email: string; readonly name: string }
  | { readonly kind: "api-key"; readonly userId: string; readonly keyId: string }
  | { readonly kind: "share-token"; readonly runId: string; readonly linkId: string };

/** The message of every 401. */
export const SIGN_IN_REQUIRED = "sign-in required: sign in to the studio, or send an API key as `Authorization: Bearer <key>`";

/** The local user of a loopback studio without sign-in. */
export const ANONYMOUS_LOOPBACK: Principal = Object.freeze({ kind: "anonymous-loopback" });

/** What a caller asks to do: a tRPC procedure (`settings.providers.upsert`) or an HTTP route (`POST /api/v1/runs`). */
export interface Operation {
  /** Procedure path or `METHOD /route/pattern`. */
  readonly name: string;
  /** Reads never change state; a share-token principal may only read. */
  readonly kind: "read" | "write";
}

/** Operations only a signed-in person may perform (not a script with an API key, not the anonymous local user). */
const PERSON_ONLY_PREFIX = "account.apiKeys.";

/**
 * The procedures a share link may call, each with the input field that names what it reads: a run id, or a
 * session id (which must be a session of the link's run). Everything else — every mutation, other runs, lists,
 * settings, workflows, share links themselves — is refused.
 */
export const SHARE_TOKEN_READS: Readonly<Record<string, "runId" | "sessionId">> = Object.freeze({
  "runs.get": "runId",
  "runs.events": "runId",
  "runs.onEvents": "runId",
  "runs.effects": "runId",
  "sessions.graph": "runId",
  "sessions.usageByModel": "runId",
  "sessions.chunks": "sessionId",
  "sessions.segments": "sessionId",
});

/** The message of every refusal of a share link. */
export const SHARE_TOKEN_REFUSAL = "a share link can only read the run it was made for";

/**
 * Whether `principal` may perform `operation`: null when allowed, else the reason (the caller answers 403).
 * Unauthenticated callers (no principal) are the caller's to refuse with 401 before asking.
 */
export function authorize(principal: Principal, operation: Operation): string | null {
  if (principal.kind === "share-token") {
    return operation.kind === "read" && Object.hasOwn(SHARE_TOKEN_READS, operation.name) ? null : SHARE_TOKEN_REFUSAL;
  }
  if (operation.name.startsWith(PERSON_ONLY_PREFIX) && principal.kind !== "user") {
    return principal.kind === "api-key"
      ? "API keys cannot manage API keys; sign in to the studio to create or revoke them"
      : "API keys belong to accounts: sign in to create or revoke them";
  }
  return null;
}
