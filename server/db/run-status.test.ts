import { describe, expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import { assertTransition, canTransition, isTerminalRunStatus, RUN_STATUSES, type RunStatus } from "./run-status";

const LEGAL: ReadonlyArray<readonly [RunStatus, RunStatus]> = [
  ["queued", "running"],
  ["queued", "cancelled"],
  ["queued", "timed_out"],
  ["running", "queued"],
  ["running", "waiting"],
  ["running", "succeeded"],
  ["running", "failed"],
  ["running", "cancelled"],
  ["running", "timed_out"],
  ["running", "needs_review"],
  ["waiting", "queued"],
  ["waiting", "cancelled"],
  ["waiting", "timed_out"],
  ["waiting", "failed"],
  ["needs_review", "queued"],
  ["needs_review", "failed"],
  ["needs_review", "cancelled"],
];

const legalKeys = new Set(LEGAL.map(([from, to]) => `${from}->${to}`));
const ALL_PAIRS = RUN_STATUSES.flatMap((from) => RUN_STATUSES.map((to) => [from, to] as const));

describe("run status transitions (SPEC §6)", () => {
  it("covers all 64 ordered pairs, 17 of them legal", () => {
    expect(ALL_PAIRS).toHaveLength(64);
    expect(ALL_PAIRS.filter(([from, to]) => canTransition(from, to))).toHaveLength(17);
  });

  it.each(LEGAL)("allows %s -> %s", (from, to) => {
    expect(canTransition(from, to)).toBe(true);
    expect(() => assertTransition(from, to)).not.toThrow();
  });

  it.each(ALL_PAIRS.filter(([from, to]) => !legalKeys.has(`${from}->${to}`)))("refuses %s -> %s", (from, to) => {
    expect(canTransition(from, to)).toBe(false);
    let thrown: unknown;
    try {
      assertTransition(from, to);
    } catch (error) {
      thrown = error;
    }
    expect(isRathError(thrown, "conflict")).toBe(true);
    expect((thrown as Error).message).toContain(`${from} -> ${to}`);
  });

  it("marks exactly succeeded, failed, cancelled and timed_out terminal", () => {
    expect(RUN_STATUSES.filter(isTerminalRunStatus)).toEqual(["succeeded", "failed", "cancelled", "timed_out"]);
  });
});
