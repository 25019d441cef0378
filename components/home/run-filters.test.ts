import { describe, expect, it } from "vitest";
import { NO_RUN_FILTERS, parseRunFilters, runFiltersQuery } from "./run-filters";

describe("run filters in the URL", () => {
  it("round-trip through the search string; blanks are left out", () => {
    const filters = { status: "failed" as const, workflowId: "wf_01", search: "weekly report" };
    const query = runFiltersQuery(filters);
    expect(query).toBe("?status=failed&workflow=wf_01&q=weekly+report");
    expect(parseRunFilters(new URLSearchParams(query))).toEqual(filters);
    expect(runFiltersQuery(NO_RUN_FILTERS)).toBe("");
    expect(runFiltersQuery({ ...NO_RUN_FILTERS, search: "  " })).toBe("");
  });

  it("drops an unknown status and trims the rest", () => {
    expect(parseRunFilters(new URLSearchParams("status=exploded&workflow=%20wf_2%20&q=%20x%20"))).toEqual({ status: "", workflowId: "wf_2", search: "x" });
    expect(parseRunFilters(new URLSearchParams(""))).toEqual(NO_RUN_FILTERS);
  });
});
