/**
 * Model provider settings. The API key is stored server-side only: every function here returns
 * `hasApiKey: boolean` instead of the key, except `readProviderApiKeyForEngine`, which the engine calls when it
 * builds a provider and whose result must never be sent to a browser or written to a log.
 */
import { z } from "zod";
import type { Database } from "./database";
import type { ProviderSetting as ProviderSettingRow } from "./generated/sqlite/client";

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
  const keyChange = apiKey === undefined ? {} : { apiKey };
  return database.transaction(async (transaction) =>
    toView(
      await transaction.providerSetting.upsert({
        where: { name: fields.name },
        create: { ...fields, apiKey: apiKey ?? null },
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
  return row?.apiKey ?? null;
}
