import { describe, expect, it } from "vitest";
import { newSortableId } from "./sortable-id";

describe("sortable ids", () => {
  it("sort by creation, also within one millisecond and when the clock steps back", () => {
    const ids = [
      newSortableId("run", 1_000),
      newSortableId("run", 1_000),
      newSortableId("run", 999),
      newSortableId("run", 2_000),
      newSortableId("run", 2_000),
    ];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(5);
    expect(ids[0]).toMatch(/^run_[0-9a-z]{22}$/);
  });
});
