/**
 * A worker process for the crash tests: `node --import tsx crash-worker.ts <database url>` runs one worker with
 * the test provider, a 1 s lease and a 250 ms heartbeat until it is killed (the tests kill it with SIGKILL).
 */
import { openDatabase } from "../../db/database";
import { createWorker } from "../worker";
import { createTestProvider } from "./test-provider";

const url = process.argv[2];
if (url === undefined) {
  console.error("usage: crash-worker.ts <database url>");
  process.exit(2);
}
const database = await openDatabase({ url });
const worker = createWorker({
  db: database,
  workerId: "crash-worker",
  leaseMs: 1_000,
  heartbeatMs: 250,
  pollMs: 50,
  providers: { scripted: createTestProvider() },
});
worker.start();
console.log("crash-worker started");
