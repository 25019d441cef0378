/**
 * Per-person API keys for scripts: `Authorization: Bearer rath_<43 characters>` (256 random bits). The key is
 * shown once, when it is made; the database keeps only its SHA-256 (a lookup by hash, so the key itself is never
 * compared or stored) and its first characters (`prefix`) so the person can tell keys apart. Revoking deletes it.
 */
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import type { Database } from "../db/database";
import { newSortableId } from "../db/sortable-id";

/** Every key starts with this, so a leaked key is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = "rath_";

/** How many characters of a key the list shows (`rath_` and 7 more). */
const SHOWN_PREFIX_LENGTH = 12;

/** `last used` is written at most this often per key, so a busy script does not write on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

const KEY_PATTERN = /^rath_[A-Za-z0-9_-]{43}$/;

/** A key as the settings panel lists it (never the key or its hash). */
export interface ApiKeyView {
  id: string;
  name: string;
  /** The key's first characters, e.g. `rath_Xk3d9Qa`. */
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A new key: its view and the key itself, which is never shown again. */
export interface CreatedApiKey {
  apiKey: ApiKeyView;
  key: string;
}

/** The name a person gives a key. */
export const ApiKeyName = z.string().trim().min(1, { message: "name must not be empty" }).max(100, { message: "name must be at most 100 characters" });

/** The SHA-256 (hex) the database keeps of a key. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

function toView(row: { id: string; name: string; prefix: string; createdAt: Date; lastUsedAt: Date | null }): ApiKeyView {
  return { id: row.id, name: row.name, prefix: row.prefix, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt };
}

/** Makes a key for `userId`; the returned `key` is the only copy. */
export async function createApiKey(database: Database, userId: string, name: string): Promise<CreatedApiKey> {
  const parsedName = ApiKeyName.safeParse(name);
  if (!parsedName.success) throw new RathError("invalid_argument", parsedName.error.issues.map((issue) => issue.message).join("; "));
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const row = await database.transaction((transaction) =>
    transaction.apiKey.create({
      data: { id: newSortableId("key"), userId, name: parsedName.data, prefix: key.slice(0, SHOWN_PREFIX_LENGTH), keyHash: hashApiKey(key) },
    }),
  );
  return { apiKey: toView(row), key };
}

/** `userId`'s keys, newest first. */
export async function listApiKeys(database: Database, userId: string): Promise<ApiKeyView[]> {
  const rows = await database.client.apiKey.findMany({ where: { userId }, orderBy: { createdAt: "desc" } });
  return rows.map(toView);
}

/** Deletes one of `userId`'s keys; a key that is not theirs (or gone) is `not_found`. */
export async function revokeApiKey(database: Database, userId: string, keyId: string): Promise<void> {
  const deleted = await database.transaction((transaction) => transaction.apiKey.deleteMany({ where: { id: keyId, userId } }));
  if (deleted.count === 0) throw new RathError("not_found", `no API key ${JSON.stringify(keyId)} of yours`);
}

/** The key's owner and id when `key` is a live key, else null; notes when it was used. */
export async function verifyApiKey(database: Database, key: string, now: Date = new Date()): Promise<{ userId: string; keyId: string } | null> {
  if (!KEY_PATTERN.test(key)) return null;
  const row = await database.client.apiKey.findUnique({ where: { keyHash: hashApiKey(key) }, select: { id: true, userId: true, lastUsedAt: true } });
  if (row === null) return null;
  if (row.lastUsedAt === null || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    // A key revoked meanwhile matches nothing: updateMany, not update.
    await database.transaction((transaction) => transaction.apiKey.updateMany({ where: { id: row.id }, data: { lastUsedAt: now } }));
  }
  return { userId: row.userId, keyId: row.id };
}
