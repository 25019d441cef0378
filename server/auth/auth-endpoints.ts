/**
 * What the routes under app/api/auth do: sign in (email + password -> session cookie), sign out (end the session,
 * clear the cookie), and the first-run account (only on a loopback studio while no account exists; it signs the
 * new person in). Bodies are JSON, checked with zod; errors are RathErrors the route maps to the JSON error shape.
 */
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import type { Database } from "../db/database";
import type { AccessPolicy } from "./access-policy";
import { countAccounts, createAccount, signInWithPassword, signOut, type AccountView } from "./accounts";

const SignInBody = z.object({
  email: z.string({ message: "email is required" }).min(1, { message: "email is required" }),
  password: z.string({ message: "password is required" }).min(1, { message: "password is required" }),
});

const SetupBody = z.object({ email: z.string(), name: z.string(), password: z.string() });

async function jsonBody<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  let value: unknown;
  try {
    value = await request.json();
  } catch {
    throw new RathError("invalid_argument", "the request body must be a JSON object");
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new RathError("invalid_argument", parsed.error.issues.map((issue) => issue.message).join("; "));
  return parsed.data;
}

function withCookies(status: number, body: unknown, cookies: Headers): Response {
  const headers = new Headers({ "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  for (const line of cookies.getSetCookie()) headers.append("set-cookie", line);
  return new Response(JSON.stringify(body), { status, headers });
}

function publicUser(user: AccountView): { id: string; email: string; name: string } {
  return { id: user.id, email: user.email, name: user.name };
}

/** True when the first-run page may be served: the studio listens on loopback and has no account yet. */
export async function isSetupAvailable(policy: AccessPolicy, database: Database): Promise<boolean> {
  return policy.loopback && (await countAccounts(database)) === 0;
}

/** `POST /api/auth/sign-in {email, password}` -> 200 `{user}` and the session cookie; wrong credentials 401. */
export async function signInEndpoint(request: Request, database: Database): Promise<Response> {
  const credentials = await jsonBody(request, SignInBody);
  const signedIn = await signInWithPassword(database, credentials);
  return withCookies(200, { user: publicUser(signedIn.user) }, signedIn.headers);
}

/** `POST /api/auth/sign-out` -> 200 `{signedOut: true}`, the session ended and its cookie cleared. */
export async function signOutEndpoint(request: Request, database: Database): Promise<Response> {
  return withCookies(200, { signedOut: true }, await signOut(database, request.headers));
}

// One first-run account at a time in this process, so two quick submits cannot both find "no account yet".
let setupQueue: Promise<unknown> = Promise.resolve();

/** `POST /api/auth/setup {email, name, password}` -> 201 `{user}`, signed in; 404 off loopback or once an account exists. */
export async function setupEndpoint(request: Request, database: Database, policy: AccessPolicy): Promise<Response> {
  const input = await jsonBody(request, SetupBody);
  const turn = setupQueue.then(async () => {
    if (!(await isSetupAvailable(policy, database))) {
      throw new RathError("not_found", policy.loopback ? "the studio already has an account: sign in instead" : "the first-run setup is served only on a loopback address; use `npx rath user create`");
    }
    const account = await createAccount(database, input);
    return signInWithPassword(database, { email: account.email, password: input.password });
  });
  setupQueue = turn.catch(() => undefined);
  const signedIn = await turn;
  return withCookies(201, { user: publicUser(signedIn.user) }, signedIn.headers);
}
