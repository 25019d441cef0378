import type { Usage } from "../session/usage";

/** What a budget callback learns at the first crossing. */
export interface BudgetExceededInfo {
  agent: string;
  limit: number;
  /** Total tokens this loop has used so far (the crossing completion included). */
  used: number;
  usage: Usage;
  session_id: string;
}

/**
 * A token budget for one agent loop: total tokens of the loop's own completions. `onExceeded` fires once,
 * at the first completion that pushes the total past `limit`; it returns "abort" (the default when there is
 * no callback) to stop the run with `RathError("budget_exceeded")`, or "continue".
 */
export interface TokenBudget {
  limit: number;
  onExceeded?: (info: BudgetExceededInfo) => "abort" | "continue";
}
