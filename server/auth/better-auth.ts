/**
 * The studio's better-auth instance, one per open database: email and password accounts (passwords hashed by
 * better-auth), sessions in the database, a signed, HTTP-only `rath.session_token` cookie. Public sign-up is off:
 * accounts are made by `rath user create` or the first-run page (accounts.ts), through better-auth's own hashing.
 * The studio never mounts better-auth's HTTP handler; its few routes (app/api/auth/*) call `auth.api` directly
 * behind the API's door (host and cross-site checks), so no other better-auth endpoint is reachable.
 *
 * Model mapping: better-auth's `user`, `session`, `account`, `verification` are the Prisma models `AuthUser`,
 * `AuthSession`, `AuthAccount`, `AuthVerification` (tables `auth_*`, prisma/schema.prisma; migration 0006).
 */
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import type { Database } from "../db/database";
import type { Environment } from "./access-policy";
import { authSecret } from "./auth-secret";
import { prismaBridgeFor } from "./prisma-bridge";

/** Passwords shorter or longer than these are refused (better-auth enforces the same bounds). */
export const PASSWORD_LENGTH = { min: 8, max: 128 } as const;

/** The prefix of the studio's cookies (`rath.session_token`). */
export const COOKIE_PREFIX = "rath";

const DAY_SECONDS = 24 * 60 * 60;

function createStudioAuth(database: Database, secret: string, environment: Environment) {
  return betterAuth({
    appName: "Rath Studio",
    // Only used to build links better-auth would send (none here); cookies are host-only.
    baseURL: "http://127.0.0.1",
    secret,
    database: prismaAdapter(prismaBridgeFor(database), { provider: database.provider }),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: PASSWORD_LENGTH.min, maxPasswordLength: PASSWORD_LENGTH.max },
    user: { modelName: "authUser" },
    session: { modelName: "authSession", expiresIn: 30 * DAY_SECONDS, updateAge: DAY_SECONDS },
    account: { modelName: "authAccount" },
    verification: { modelName: "authVerification" },
    advanced: {
      cookiePrefix: COOKIE_PREFIX,
      // `Secure` cookies only when the studio is served over HTTPS (RATH_SECURE_COOKIES=1, e.g. behind a TLS proxy):
      // a plain-HTTP studio on a LAN address could not keep a Secure cookie.
      useSecureCookies: environment.RATH_SECURE_COOKIES === "1" || environment.RATH_SECURE_COOKIES === "true",
    },
    telemetry: { enabled: false },
  });
}

/** The better-auth instance type. */
export type StudioAuth = ReturnType<typeof createStudioAuth>;

const instances = new WeakMap<Database, Promise<StudioAuth>>();

/** The better-auth instance of `database` (created once per handle; the secret is read or made first). */
export function studioAuth(database: Database, environment: Environment = process.env): Promise<StudioAuth> {
  let instance = instances.get(database);
  if (instance === undefined) {
    instance = authSecret(database, environment).then((secret) => createStudioAuth(database, secret, environment));
    instances.set(database, instance);
    instance.catch(() => instances.delete(database));
  }
  return instance;
}
