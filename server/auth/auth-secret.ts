/**
 * The secret better-auth signs session cookies with. `RATH_AUTH_SECRET` (at least 32 characters) when set;
 * otherwise one generated on first use and kept in the database (`auth_secrets`), so every server process on the
 * same database signs and checks cookies alike, and a new database starts with a new secret. Keeping it next to
 * the sessions it protects adds no exposure: whoever reads the database already holds the session tokens.
 */
import { randomBytes } from "node:crypto";
import { isRathError, RathError } from "../../runtime/errors";
import type { Database } from "../db/database";
import type { Environment } from "./access-policy";

const SECRET_ID = "session-signing";
const MINIMUM_LENGTH = 32;

/** The session-signing secret: RATH_AUTH_SECRET, else the database's (created once, race-safe). */
export async function authSecret(database: Database, environment: Environment = process.env): Promise<string> {
  const configured = environment.RATH_AUTH_SECRET?.trim();
  if (configured !== undefined && configured !== "") {
    if (configured.length < MINIMUM_LENGTH) {
      throw new RathError("invalid_config", `RATH_AUTH_SECRET must be at least ${MINIMUM_LENGTH} characters long; found ${configured.length}`);
    }
    return configured;
  }
  const stored = await database.client.authSecret.findUnique({ where: { id: SECRET_ID } });
  if (stored !== null) return stored.value;
  const value = randomBytes(32).toString("base64url");
  try {
    await database.transaction((transaction) => transaction.authSecret.create({ data: { id: SECRET_ID, value } }));
    return value;
  } catch (error) {
    // Another process created it first: use theirs.
    if (!isRathError(error, "conflict")) throw error;
    const winner = await database.client.authSecret.findUniqueOrThrow({ where: { id: SECRET_ID } });
    return winner.value;
  }
}
