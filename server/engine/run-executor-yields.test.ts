/**
 * The embedded worker shares the web server's event loop: a run must let I/O through between its steps, or a live
 * page waits for the whole run before its stream gets the first event (on SQLite every await of a step can be a
 * resolved promise, which never lets the event loop reach I/O).
 */
import { expect, it } from "vitest";
import { describeEachDatabase } from "../db/testing/test-databases";
import { runToCompletion } from "./run-to-completion";
import { linearSpec, queueRun } from "./testing/engine-fixtures";
import { createTestProvider } from "./testing/test-provider";

describeEachDatabase("a run and the event loop", (open) => {
  it("lets the event loop run callbacks between steps: macrotasks queued at the start run long before the run ends", async () => {
    const { database } = await open();
    const agents = Array.from({ length: 12 }, (_, index) => ({ id: `agent${index}`, directive: { usage: [1, 1] as [number, number] } }));
    const queued = await queueRun(database, linearSpec(agents), { input: "go" });
    let ticks = 0;
    let running = true;
    const tick = () => {
      ticks += 1;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const run = await runToCompletion(database, queued.id, { providers: { scripted: createTestProvider() } });
    running = false;
    const ticksDuringRun = ticks;
    expect(run.status).toBe("succeeded");
    // At least one turn of the event loop per step (14 steps: input, 12 agents, output).
    expect(ticksDuringRun).toBeGreaterThanOrEqual(14);
  });
});
