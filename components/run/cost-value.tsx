/**
 * A cost figure: the amount when every model involved is priced; "—" with a link to the price table in settings
 * when a model is not (naming it); "—" alone while loading or when no tokens were used.
 */
import Link from "next/link";
import { formatCost, type CostFigure } from "./run-costs";

/** Shows one cost. */
export function CostValue({ cost, testId }: { cost: CostFigure | null; testId: string }) {
  if (cost === null || !cost.used) {
    return (
      <span data-testid={testId} data-known="false" title={cost === null ? "Loading prices" : "No tokens used"}>
        —
      </span>
    );
  }
  if (cost.usd === null) {
    const models = cost.unpricedModels.join(", ");
    return (
      <span data-testid={testId} data-known="false" className="inline-flex min-w-0 max-w-full items-baseline gap-1">
        —
        <Link prefetch={false} href="/settings#prices-heading" className="truncate text-accent hover:underline" title={`No price for ${models}: set it in Settings to see costs`} data-testid={`${testId}-hint`}>
          set price
        </Link>
      </span>
    );
  }
  return (
    <span data-testid={testId} data-known="true" data-usd={cost.usd} title={`${cost.usd} USD at the prices in Settings`}>
      {formatCost(cost.usd)}
    </span>
  );
}
