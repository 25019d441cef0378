/**
 * Accounts through better-auth on SQLite and PostgreSQL: the password is stored only as better-auth's hash, sign-in
 * makes a session whose signed cookie identifies the person, wrong credentials are refused with one message, and
 * sign-out ends the session.
 */
import { expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import { describeEachDatabase } from "../db/testing/test-databases";
import { countAccounts, createAccount, sessionUser, signInWithPassword, signOut, WRONG_CREDENTIALS } from "./accounts";

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!isRathError(error)) throw new Error(`expected a RathError, got ${String(error)}`);
  return { code: error.code, message: error.message };
}

function cookieOf(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((line) => line.split(";", 1)[0]!)
    .join("; ");
}

describeEachDatabase("accounts", (open) => {
  it("creates an account whose password is kept only as a hash, and refuses a second one with the same email", async () => {
    const { database } = await open();
    expect(await countAccounts(database)).toBe(0);
    const account = await createAccount(database, { email: " Ada@Example.com ", name: "Ada", password: "correct horse battery" });
    expect(account).toMatchObject({ email: "ada@example.com", name: "Ada" });
    expect(await countAccounts(database)).toBe(1);
    const credential = await database.client.authAccount.findFirstOrThrow({ where: { userId: account.id } });
    expect(credential.providerId).toBe("credential");
    expect(credential.password).not.toContain("correct horse");
    expect(credential.password?.length).toBeGreaterThan(40);
    expect(await failure(createAccount(database, { email: "ada@example.com", name: "Ada 2", password: "another password" }))).toMatchObject({
      code: "conflict",
      message: "an account with email ada@example.com already exists",
    });
  });

  it("names the field that is wrong and writes nothing", async () => {
    const { database } = await open();
    expect((await failure(createAccount(database, { email: "not-an-email", name: "A", password: "long enough" }))).message).toContain("email must be an email address");
    expect((await failure(createAccount(database, { email: "a@b.co", name: " ", password: "long enough" }))).message).toContain("name must not be empty");
    expect((await failure(createAccount(database, { email: "a@b.co", name: "A", password: "short" }))).message).toContain("password must be at least 8 characters");
    expect(await countAccounts(database)).toBe(0);
  });

  it("signs in with the right password only; the cookie names the person until sign-out", async () => {
    const { database } = await open();
    const account = await createAccount(database, { email: "grace@example.com", name: "Grace", password: "hopper-1906" });
    expect(await failure(signInWithPassword(database, { email: "grace@example.com", password: "wrong-password" }))).toEqual({ code: "unauthenticated", message: WRONG_CREDENTIALS });
    expect(await failure(signInWithPassword(database, { email: "nobody@example.com", password: "hopper-1906" }))).toEqual({ code: "unauthenticated", message: WRONG_CREDENTIALS });

    const signedIn = await signInWithPassword(database, { email: "Grace@example.com", password: "hopper-1906" });
    expect(signedIn.user).toMatchObject({ id: account.id, email: "grace@example.com" });
    const setCookie = signedIn.headers.getSetCookie().find((line) => line.startsWith("rath.session_token="));
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const cookie = cookieOf(signedIn.headers);
    expect(await sessionUser(database, new Headers({ cookie }))).toMatchObject({ id: account.id, name: "Grace" });

    const forged = cookie.replace(/rath\.session_token=([^.;]+)\.[^;]+/, "rath.session_token=$1.forgedsignature");
    expect(await sessionUser(database, new Headers({ cookie: forged }))).toBeNull();
    expect(await sessionUser(database, new Headers())).toBeNull();

    const cleared = await signOut(database, new Headers({ cookie }));
    expect(cleared.getSetCookie().some((line) => line.startsWith("rath.session_token=;") || /rath\.session_token=[^;]*;.*Max-Age=0/i.test(line))).toBe(true);
    expect(await sessionUser(database, new Headers({ cookie }))).toBeNull();
    expect(await database.client.authSession.count()).toBe(0);
  });
});
