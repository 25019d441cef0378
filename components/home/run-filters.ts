/**
 * The /runs filters as URL search parameters (`?status=failed&workflow=wf_…&q=report`), so a reload or a copied
 * link keeps them. Pure: parse (unknown statuses and blanks are dropped) and serialise.
 */

/** Statuses a run can have, for the filter. */
export const RUN_STATUSES = ["queued", "running", "waiting", "needs_review", "succeeded", "failed", "cancelled", "timed_out"] as const;
export type RunStatusFilter = (typeof RUN_STATUSES)[number];

/** The filters; empty strings mean "any". */
export interface RunFilters {
  status: RunStatusFilter | "";
  workflowId: string;
  search: string;
}

/** No filter. */
export const NO_RUN_FILTERS: RunFilters = { status: "", workflowId: "", search: "" };

function isStatus(value: string): value is RunStatusFilter {
  return (RUN_STATUSES as readonly string[]).includes(value);
}

/** The filters a URL's search parameters name. */
export function parseRunFilters(params: Pick<URLSearchParams, "get">): RunFilters {
  const status = params.get("status") ?? "";
  return { status: isStatus(status) ? status : "", workflowId: (params.get("workflow") ?? "").trim(), search: (params.get("q") ?? "").trim() };
}

/** The search string (with its `?`, or "" when nothing is filtered) for `filters`. */
export function runFiltersQuery(filters: RunFilters): string {
  const params = new URLSearchParams();
  if (filters.status !== "") params.set("status", filters.status);
  if (filters.workflowId.trim() !== "") params.set("workflow", filters.workflowId.trim());
  if (filters.search.trim() !== "") params.set("q", filters.search.trim());
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}
