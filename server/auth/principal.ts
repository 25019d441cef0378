/**
 * Who is calling. Every API request resolves to one principal (or none: 401), and every procedure and route asks
 * `authorize` whether that principal may do what it asks. The kinds:
 *
 * - `anonymous-loopback` — anyone who can reach a studio that listens on loopback without sign-in (the local
 *   user; the access policy decides, never a request header);
 * - `user` — a person signed in through the sign-in page (a session cookie);
 * - `api-key` — a script holding one of a user's API keys (`Authorization: Bearer rath_...`).
 *
 * Room is left for the read-only share links of a later issue: a `share-token` principal scoped to one run would
 * be added to this union, and `authorize` would let it read that run's procedures only.
 */

/** A caller the studio recognises. */
export type Principal =
  | { readonly kind: "anonymous-loopback" }
  | { readonly kind: "user"; readonly userId: string; readonly email: string; readonly name: string }
  | { readonly kind: "api-key"; readonly userId: string; readonly keyId: string };

/** The message of every 401. */
export const SIGN_IN_REQUIRED = "sign-in required: sign in to the studio, or send an API key as `Authorization: Bearer <key>`";

/** The local user of a loopback studio without sign-in. */
export const ANONYMOUS_LOOPBACK: Principal = Object.freeze({ kind: "anonymous-loopback" });

/** What a caller asks to do: a tRPC procedure (`settings.providers.upsert`) or an HTTP route (`POST /api/v1/runs`). */
export interface Operation {
  /** Procedure path or `METHOD /route/pattern`. */
  readonly name: string;
  /** Reads never change state; a future share-token principal may only read. */
  readonly kind: "read" | "write";
}

/** Operations only a signed-in person may perform (not a script with an API key, not the anonymous local user). */
const PERSON_ONLY_PREFIX = "account.apiKeys.";

/**
 * Whether `principal` may perform `operation`: null when allowed, else the reason (the caller answers 403).
 * Unauthenticated callers (no principal) are the caller's to refuse with 401 before asking.
 */
export function authorize(principal: Principal, operation: Operation): string | null {
  if (operation.name.startsWith(PERSON_ONLY_PREFIX) && principal.kind !== "user") {
    return principal.kind === "api-key"
      ? "API keys cannot manage API keys; sign in to the studio to create or revoke them"
      : "API keys belong to accounts: sign in to create or revoke them";
  }
  return null;
}
