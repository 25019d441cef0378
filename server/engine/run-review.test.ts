import { expect, it } from "vitest";
import { claimNext } from "../db/run-lease";
import { transition } from "../db/run-store";
import { describeEachDatabase } from "../db/testing/test-databases";
import { resolveReview } from "./run-review";
import { linearSpec, queueRun } from "./testing/engine-fixtures";

describeEachDatabase("run review", (open) => {
  it("fails a needs_review run on request and refuses runs that are not in review", async () => {
    const { database } = await open();
    const run = await queueRun(database, linearSpec([{ id: "a", directive: {} }]));
    await expect(resolveReview(database, run.id, { action: "fail" })).rejects.toThrow(/is queued; expected needs_review/);
    const claim = await claimNext(database, "w", 10_000);
    await transition(database, run.id, claim?.run.version as number, "needs_review", { fencingToken: claim?.fencingToken as number });
    const failed = await resolveReview(database, run.id, { action: "fail", reason: "the payment went out twice" });
    expect(failed.status).toBe("failed");
    expect(failed.error).toEqual({ code: "review_failed", message: "the payment went out twice" });
  });
});
