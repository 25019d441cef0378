/** Model prices (USD per million input / output tokens) by model name, for the run view's cost figures. */
import { z } from "zod";
import type { Database } from "./database";

/** One model's price. */
export interface ModelPriceRecord {
  model: string;
  inputPerMillion: number;
  outputPerMillion: number;
  createdAt: Date;
  updatedAt: Date;
}

/** Input of `saveModelPrice`: a model name and two non-negative, finite prices. */
export const SaveModelPriceInput = z.object({
  model: z.string().trim().min(1).max(200),
  inputPerMillion: z.number().finite().nonnegative().max(1_000_000),
  outputPerMillion: z.number().finite().nonnegative().max(1_000_000),
});
export type SaveModelPriceInput = z.input<typeof SaveModelPriceInput>;

/** Every price, by model name. */
export async function listModelPrices(database: Database): Promise<ModelPriceRecord[]> {
  return database.client.modelPrice.findMany({ orderBy: { model: "asc" } });
}

/** Creates or replaces one model's price. */
export async function saveModelPrice(database: Database, input: SaveModelPriceInput): Promise<ModelPriceRecord> {
  const { model, ...prices } = SaveModelPriceInput.parse(input);
  return database.transaction(async (transaction) => transaction.modelPrice.upsert({ where: { model }, create: { model, ...prices }, update: prices }));
}

/** Deletes one model's price; returns whether it existed. */
export async function deleteModelPrice(database: Database, model: string): Promise<boolean> {
  return database.transaction(async (transaction) => (await transaction.modelPrice.deleteMany({ where: { model } })).count === 1);
}
