/**
 * The start signal of a child process of `run-together.ts`: prints `ready` (its database is open), then waits for a
 * line on stdin, so that all processes start their work at the same moment.
 */
import { createInterface } from "node:readline";

/** Prints `ready` and resolves at the first line on stdin. */
export function readyThenWaitForGo(): Promise<void> {
  console.log("ready");
  return new Promise<void>((resolve) => {
    const lines = createInterface({ input: process.stdin });
    lines.once("line", () => {
      lines.close();
      process.stdin.destroy();
      resolve();
    });
  });
}
