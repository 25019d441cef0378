/**
 * Accounts of the studio, through better-auth (better-auth.ts): create one (the CLI and the first-run page),
 * count them, sign in with email and password (a session and its cookie), read the signed-in user from a
 * request's cookie, sign out. Passwords are hashed and checked by better-auth only.
 */
import { APIError } from "better-auth/api";
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import type { Database } from "../db/database";
import { COOKIE_PREFIX, PASSWORD_LENGTH, studioAuth } from "./better-auth";
import { SIGN_IN_THROTTLE, type SignInThrottle } from "./sign-in-throttle";

/** A person as the studio shows them (never the password or its hash). */
export interface AccountView {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
}

/** What `createAccount` takes; each field is checked with a message naming it. */
export const NewAccount = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email({ message: "email must be an email address, like ada@example.com" })),
  name: z.string().trim().min(1, { message: "name must not be empty" }).max(100, { message: "name must be at most 100 characters" }),
  password: z
    .string()
    .min(PASSWORD_LENGTH.min, { message: `password must be at least ${PASSWORD_LENGTH.min} characters` })
    .max(PASSWORD_LENGTH.max, { message: `password must be at most ${PASSWORD_LENGTH.max} characters` }),
});
export type NewAccount = z.input<typeof NewAccount>;

/** The message of a failed sign-in: the same whether the email or the password was wrong. */
export const WRONG_CREDENTIALS = "wrong email or password";

/** The session cookie's name (with `__Secure-` when RATH_SECURE_COOKIES is on). */
export const SESSION_COOKIE_NAMES: readonly string[] = [`${COOKIE_PREFIX}.session_token`, `__Secure-${COOKIE_PREFIX}.session_token`];

function toView(user: { id: string; email: string; name: string; createdAt: Date }): AccountView {
  return { id: user.id, email: user.email, name: user.name, createdAt: user.createdAt };
}

/** Parses account input; a bad field is an `invalid_argument` naming it. */
export function parseNewAccount(input: NewAccount): z.output<typeof NewAccount> {
  const parsed = NewAccount.safeParse(input);
  if (!parsed.success) throw new RathError("invalid_argument", parsed.error.issues.map((issue) => issue.message).join("; "));
  return parsed.data;
}

/** How many accounts exist. */
export function countAccounts(database: Database): Promise<number> {
  return database.client.authUser.count();
}

/** Creates an account with a password (hashed by better-auth); an email in use is a `conflict`. */
export async function createAccount(database: Database, input: NewAccount): Promise<AccountView> {
  const account = parseNewAccount(input);
  const auth = await studioAuth(database);
  const context = await auth.$context;
  if ((await context.internalAdapter.findUserByEmail(account.email)) !== null) {
    throw new RathError("conflict", `an account with email ${account.email} already exists`);
  }
  const hash = await context.password.hash(account.password);
  const user = await context.internalAdapter.createUser({ email: account.email, name: account.name, emailVerified: false }, { method: "email-password" });
  await context.internalAdapter.linkAccount({ userId: user.id, providerId: "credential", accountId: user.id, password: hash });
  return toView(user);
}

/** A successful sign-in: the person and the `Set-Cookie` headers that carry the new session. */
export interface SignedIn {
  user: AccountView;
  headers: Headers;
}

/**
 * Signs in with email and password; wrong credentials are `unauthenticated` with one message for both cases, and
 * too many failures for one email lock it out for a while (sign-in-throttle.ts).
 */
export async function signInWithPassword(
  database: Database,
  credentials: { email: string; password: string },
  throttle: SignInThrottle = SIGN_IN_THROTTLE,
): Promise<SignedIn> {
  const email = credentials.email.trim().toLowerCase();
  throttle.check(email);
  const auth = await studioAuth(database);
  try {
    const { headers, response } = await auth.api.signInEmail({ body: { email, password: credentials.password, rememberMe: true }, headers: new Headers(), returnHeaders: true });
    throttle.succeeded(email);
    return { user: toView(response.user), headers };
  } catch (error) {
    if (error instanceof APIError && (error.statusCode === 401 || error.statusCode === 400)) {
      throttle.failed(email);
      throw new RathError("unauthenticated", WRONG_CREDENTIALS);
    }
    throw error;
  }
}

/** True when the request carries a session cookie (valid or not). */
export function hasSessionCookie(headers: Headers): boolean {
  const cookie = headers.get("cookie");
  if (cookie === null) return false;
  return cookie.split(";").some((part) => SESSION_COOKIE_NAMES.includes(part.split("=", 1)[0]!.trim()));
}

/** The signed-in person of a request's session cookie, or null (no cookie, a forged or expired one). */
export async function sessionUser(database: Database, headers: Headers): Promise<AccountView | null> {
  if (!hasSessionCookie(headers)) return null;
  const auth = await studioAuth(database);
  const session = await auth.api.getSession({ headers: new Headers({ cookie: headers.get("cookie") ?? "" }), query: { disableCookieCache: true } });
  return session === null ? null : toView(session.user);
}

/** Ends the request's session (if any) and returns the `Set-Cookie` headers that clear the cookie. */
export async function signOut(database: Database, headers: Headers): Promise<Headers> {
  const auth = await studioAuth(database);
  if (!hasSessionCookie(headers)) return new Headers();
  const result = await auth.api.signOut({ headers: new Headers({ cookie: headers.get("cookie") ?? "" }), returnHeaders: true });
  return result.headers;
}
