/**
 * Provider settings for the settings page. The API key is write-only: it is stored server-side and every
 * answer says `hasApiKey` instead; only the engine reads the key back (server/db/provider-settings-store.ts).
 */
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import type { Database } from "../db/database";
import { deleteProviderSetting, listProviderSettings, saveProviderSetting } from "../db/provider-settings-store";
import { ProviderKind } from "../../runtime/providers/config";
import { deleteModelPrice as storeDeleteModelPrice, listModelPrices as storeListModelPrices, saveModelPrice, SaveModelPriceInput, type ModelPriceRecord } from "../db/model-price-store";
import { providerView, type ProviderView } from "./views";

/**
 * A provider's base URL: http or https only (a `file:`, `javascript:` or `ftp:` URL is refused by name), since the
 * engine sends the provider's key to it.
 */
export const HttpBaseUrl = z
  .string()
  .trim()
  .url({ message: "baseUrl must be a URL, like https://api.openai.com/v1" })
  .refine((value) => !URL.canParse(value) || /^https?:$/i.test(new URL(value).protocol), { message: "baseUrl must start with http:// or https://" });

/**
 * Input of `upsertProvider`. `apiKey`: a string sets it, null removes it, absent keeps the stored one (a form can be
 * saved without typing the key again).
 */
export const UpsertProviderRequest = z.object({
  name: z.string().trim().min(1).max(100).regex(/^[A-Za-z0-9_.-]+$/, "letters, digits, '_', '.' or '-'"),
  kind: ProviderKind,
  baseUrl: HttpBaseUrl.nullable().default(null),
  model: z.string().min(1).max(200).nullable().default(null),
  apiKey: z.string().min(1).max(1000).nullable().optional(),
});
export type UpsertProviderRequest = z.input<typeof UpsertProviderRequest>;

/** Every provider setting, by name, without keys. */
export async function listProviders(database: Database): Promise<ProviderView[]> {
  return (await listProviderSettings(database)).map(providerView);
}

/** Creates or updates a provider setting; the answer never contains the key. */
export async function upsertProvider(database: Database, request: UpsertProviderRequest): Promise<ProviderView> {
  const parsed = UpsertProviderRequest.parse(request);
  return providerView(await saveProviderSetting(database, parsed));
}

/** Deletes a provider setting; `not_found` when there is none with that name. */
export async function deleteProvider(database: Database, name: string): Promise<{ name: string; deleted: true }> {
  if (!(await deleteProviderSetting(database, name))) throw new RathError("not_found", `provider setting '${name}' not found`);
  return { name, deleted: true };
}

/** A model's price as the API shows it: USD per million input and output tokens. */
export interface ModelPriceView {
  model: string;
  inputPerMillion: number;
  outputPerMillion: number;
  updatedAt: string;
}

function modelPriceView(record: ModelPriceRecord): ModelPriceView {
  return { model: record.model, inputPerMillion: record.inputPerMillion, outputPerMillion: record.outputPerMillion, updatedAt: record.updatedAt.toISOString() };
}

/** Input of `upsertModelPrice`. */
export const UpsertModelPriceRequest = SaveModelPriceInput;
export type UpsertModelPriceRequest = z.input<typeof UpsertModelPriceRequest>;

/** Every model price, by model name. */
export async function listModelPrices(database: Database): Promise<ModelPriceView[]> {
  return (await storeListModelPrices(database)).map(modelPriceView);
}

/** Creates or replaces one model's price. */
export async function upsertModelPrice(database: Database, request: UpsertModelPriceRequest): Promise<ModelPriceView> {
  return modelPriceView(await saveModelPrice(database, request));
}

/** Deletes one model's price; `not_found` when the model has none. */
export async function deleteModelPrice(database: Database, model: string): Promise<{ model: string; deleted: true }> {
  if (!(await storeDeleteModelPrice(database, model))) throw new RathError("not_found", `no price for model '${model}'`);
  return { model, deleted: true };
}
