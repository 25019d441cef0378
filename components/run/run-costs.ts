/**
 * Cost of sets of sessions (one session, a branch subtree, the run) from each session's own usage by model and
 * the price table in settings (USD per million prompt / completion tokens). Pure. A set costs a known amount
 * only when every model it used is priced; otherwise the cost is unknown and names the models to price.
 */

/** One model's own usage in a session (as `sessions.usageByModel` reports it). */
export interface ModelTokens {
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
}

/** A model's price (as `settings.modelPrices.list` reports it). */
export interface ModelPrice {
  model: string;
  inputPerMillion: number;
  outputPerMillion: number;
}

/** A cost: USD when every model is priced, else null with the unpriced models; `used` false when no tokens at all. */
export interface CostFigure {
  usd: number | null;
  unpricedModels: string[];
  used: boolean;
}

/** Own usage by model of each session, by session id. */
export type UsageByModel = Readonly<Record<string, readonly ModelTokens[]>>;

/** The cost of the sessions `ids` (each counted once). */
export function costOf(ids: Iterable<string>, usage: UsageByModel, prices: readonly ModelPrice[]): CostFigure {
  const priceOf = new Map(prices.map((price) => [price.model, price]));
  const unpriced = new Set<string>();
  let usd = 0;
  let used = false;
  for (const id of new Set(ids)) {
    for (const entry of usage[id] ?? []) {
      if (entry.prompt_tokens === 0 && entry.completion_tokens === 0) continue;
      used = true;
      const price = priceOf.get(entry.model);
      if (price === undefined) unpriced.add(entry.model);
      else usd += (entry.prompt_tokens * price.inputPerMillion + entry.completion_tokens * price.outputPerMillion) / 1_000_000;
    }
  }
  return { usd: unpriced.size > 0 || !used ? null : usd, unpricedModels: [...unpriced].sort(), used };
}

/** A cost for people: cents and up with two decimals, smaller amounts with enough digits to see them. */
export function formatCost(usd: number): string {
  if (usd === 0) return "$0.00";
  if (usd >= 0.01) return `$${usd.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return `$${usd.toPrecision(2)}`;
}
