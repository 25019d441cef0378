import { describe, expect, it } from "vitest";
import { needsPageRefresh, runStatusKey } from "./page-refresh";

const renderedAt = Date.parse("2026-12-04T03:30:00.000Z");
const before = { id: "run_a", status: "succeeded", updatedAt: "2026-12-04T03:29:59.000Z" };
const after = { id: "run_b", status: "succeeded", updatedAt: "2026-12-04T03:30:02.500Z" };

describe("needsPageRefresh", () => {
  it("on the first answer, refreshes only when a run changed after the page was rendered", () => {
    expect(needsPageRefresh(null, [before], renderedAt)).toBe(false);
    expect(needsPageRefresh(null, [], renderedAt)).toBe(false);
    // Started and finished between the render and the first fetch: the cards still say "never".
    expect(needsPageRefresh(null, [after, before], renderedAt)).toBe(true);
  });

  it("on later answers, refreshes when any run's status changed, and not otherwise", () => {
    const key = runStatusKey([before]);
    expect(needsPageRefresh(key, [before], renderedAt)).toBe(false);
    expect(needsPageRefresh(key, [after, before], renderedAt)).toBe(true);
    expect(needsPageRefresh(key, [{ ...before, status: "failed" }], renderedAt)).toBe(true);
  });
});
