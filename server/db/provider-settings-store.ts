/**
 * Model provider settings. The API key is stored server-side only, encrypted at rest (secret-box.ts: AES-256-GCM,
 * RATH_SECRET_KEY or the database's key file): every function here returns `hasApiKey: boolean` instead of the
 * key, except `readProviderApiKeyForEngine`, which the engine calls when it builds a provider and whose result
 * must never be sent to a browser or written to a log. Keys stored in plaintext by earlier versions are read as
 * they are and encrypted in place when read. Every key saved or read joins the values redacted from stored run
 * data (stored-secrets.ts).
 */
import { z } from "zod";
import { isRathError } from "../../runtime/errors";
import type { Database } from "./database";
import type { ProviderSetting as ProviderSettingRow } from "./generated/sqlite/client";
import { decryptSecret, encryptSecret, isEncryptedSecret, secretKeyFor } from "./secret-box";
import { rememberSecrets } from "./stored-secrets";
import { rowReader } from "./raw-sql";

/** What a provider's key is bound to when encrypted (a value copied into another provider's row does not decrypt). */
function keyContext(name: string): string {
  return `provider_settings.api_key:${name}`;
}

/** A provider setting as the API may show it (no key). */
export interface ProviderSettingView {
  name: string;
  kind: string;
  baseUrl: string | null;
  model: string | null;
  hasApiKey: boolean;
  createdAt: Date;
  updatedAt: Date;
}

function toView(row: ProviderSettingRow): ProviderSettingView {
  return {
    name: row.name,
    kind: row.kind,
    baseUrl: row.baseUrl,
    model: row.model,
    hasApiKey: row.apiKey !== null && row.apiKey !== "",
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * Input of `saveProviderSetting`. `apiKey`: a string sets it, null removes it, absent keeps the stored one
 * (so a settings form can be saved without re-entering the key).
 */
export const SaveProviderSettingInput = z.object({
  name: z.string().trim().min(1).max(100),
  kind: z.string().trim().min(1).max(100),
  baseUrl: z.string().url().nullable().default(null),
  model: z.string().min(1).nullable().default(null),
  apiKey: z.string().min(1).nullable().optional(),
});
export type SaveProviderSettingInput = z.input<typeof SaveProviderSettingInput>;

/** Creates or updates a provider setting by name. */
export async function saveProviderSetting(database: Database, input: SaveProviderSettingInput): Promise<ProviderSettingView> {
  const { apiKey, ...fields } = SaveProviderSettingInput.parse(input);
  // Encrypted before the transaction (the key file may be created on first use).
  const stored = typeof apiKey === "string" ? encryptSecret(apiKey, secretKeyFor(database.location), keyContext(fields.name)) : apiKey;
  rememberSecrets([apiKey]);
  const keyChange = stored === undefined ? {} : { apiKey: stored };
  return database.transaction(async (transaction) =>
    toView(
      await transaction.providerSetting.upsert({
        where: { name: fields.name },
        create: { ...fields, apiKey: stored ?? null },
        update: { ...fields, ...keyChange },
      }),
    ),
  );
}

/** One provider setting (without its key), or null. */
export async function getProviderSetting(database: Database, name: string): Promise<ProviderSettingView | null> {
  const row = await database.client.providerSetting.findUnique({ where: { name } });
  return row === null ? null : toView(row);
}

/** Every provider setting (without keys), by name. */
export async function listProviderSettings(database: Database): Promise<ProviderSettingView[]> {
  const rows = await database.client.providerSetting.findMany({ orderBy: { name: "asc" } });
  return rows.map(toView);
}

/** Deletes a provider setting; returns whether it existed. */
export async function deleteProviderSetting(database: Database, name: string): Promise<boolean> {
  return database.transaction(async (transaction) => (await transaction.providerSetting.deleteMany({ where: { name } })).count === 1);
}

/**
 * INTERNAL, engine only: the stored API key of a provider (null when none). Never return it from an API
 * procedure, never log it.
 */
export async function readProviderApiKeyForEngine(database: Database, name: string): Promise<string | null> {
  const row = await database.client.providerSetting.findUnique({ where: { name }, select: { apiKey: true } });
  if (row === null || row.apiKey === null || row.apiKey === "") return null;
  const apiKey = decryptSecret(row.apiKey, secretKeyFor(database.location), keyContext(name), `the API key of provider '${name}'`);
  rememberSecrets([apiKey]);
  if (!isEncryptedSecret(row.apiKey)) await encryptInPlace(database, name, row.apiKey);
  return apiKey;
}

/** Replaces a legacy plaintext key with its encryption, unless the row changed meanwhile. */
async function encryptInPlace(database: Database, name: string, plaintext: string): Promise<void> {
  const encrypted = encryptSecret(plaintext, secretKeyFor(database.location), keyContext(name));
  await database.transaction((transaction) => transaction.providerSetting.updateMany({ where: { name, apiKey: plaintext }, data: { apiKey: encrypted } }));
}

/**
 * INTERNAL, engine only: makes every stored provider key known to the redaction of stored run data (and encrypts
 * legacy plaintext keys on the way). A key that does not decrypt (saved under another secret key) is skipped:
 * it cannot be used either, and the provider that needs it fails with the reason when a run resolves it.
 */
export async function rememberStoredProviderKeys(database: Database): Promise<void> {
  // A raw read (rowReader): it runs at the start of every run execution.
  const rows = await rowReader(database)<{ name: string }>(`SELECT "name" FROM "provider_settings" WHERE "api_key" IS NOT NULL`);
  for (const { name } of rows) {
    try {
      await readProviderApiKeyForEngine(database, name);
    } catch (error) {
      if (!isRathError(error, "invalid_config")) throw error;
    }
  }
}
