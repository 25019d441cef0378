/**
 * What the sign-in and first-run pages need to know on the server (app/sign-in, app/setup): whether the visitor
 * is already signed in, whether the studio has an account, whether the first-run page may be served.
 */
import { sharedDatabase } from "../services/shared-database";
import { currentAccessPolicy } from "./access-policy";
import { countAccounts } from "./accounts";
import { safeNextPath } from "./page-access";
import { resolvePrincipal } from "./resolve-principal";

/** The sign-in page's state. */
export interface SignInPageState {
  /** Where to go after signing in (a path on this studio). */
  next: string;
  /** The visitor already has a session: the page redirects to `next`. */
  signedIn: boolean;
  signInRequired: boolean;
  hasAccounts: boolean;
  /** No account yet and the studio listens on loopback: the first-run page is offered. */
  setupAvailable: boolean;
}

/** Reads the sign-in page's state for a request's headers and `next` parameter. */
export async function signInPageState(headers: Headers, next: string | undefined): Promise<SignInPageState> {
  const policy = currentAccessPolicy();
  const database = await sharedDatabase();
  const principal = await resolvePrincipal({ headers }, policy, database);
  const hasAccounts = (await countAccounts(database)) > 0;
  return {
    next: safeNextPath(next),
    signedIn: principal?.kind === "user",
    signInRequired: policy.signInRequired,
    hasAccounts,
    setupAvailable: policy.loopback && !hasAccounts,
  };
}

/** True when the first-run page may be served now (loopback, no account yet); otherwise it is a 404. */
export async function setupPageAvailable(): Promise<boolean> {
  const policy = currentAccessPolicy();
  return policy.loopback && (await countAccounts(await sharedDatabase())) === 0;
}
