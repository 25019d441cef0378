/**
 * A child process of `sqlite-concurrency.test.ts`: on the database of DATABASE_URL, creates `--runs` runs of the
 * given workflow and drives each one through a claim, two step commits (checkpoint, session, chunk, events) and
 * `succeeded`, while other processes do the same on the same file. With `--queue-only` it only queues the runs. Prints one JSON line
 * `{ "runIds": [...], "errors": [...] }`; waits for a line on stdin before it starts so all writers start together.
 */
import { openDatabase } from "../database";
import { commitStep } from "../run-commit";
import { claimRun } from "../run-lease";
import { createRun, transition } from "../run-store";
import { PLAN_HASH, rootSession, userChunk } from "./fixtures";
import { readyThenWaitForGo } from "./wait-for-go";

function option(name: string): string {
  const index = process.argv.indexOf(`--${name}`);
  const value = index === -1 ? undefined : process.argv[index + 1];
  if (value === undefined) throw new Error(`concurrent-writer needs --${name} <value>`);
  return value;
}

const workflowId = option("workflow");
const revisionId = option("revision");
const runCount = Number(option("runs"));
const label = option("label");
const queueOnly = process.argv.includes("--queue-only");

const database = await openDatabase();
await readyThenWaitForGo();

const runIds: string[] = [];
const errors: string[] = [];
for (let index = 0; index < runCount; index += 1) {
  try {
    const { run } = await createRun(database, { workflowId, revisionId, planHash: PLAN_HASH, input: { writer: label, index } });
    runIds.push(run.id);
    if (queueOnly) continue;
    const claim = await claimRun(database, run.id, `writer-${label}`, 60_000);
    if (claim === null) throw new Error(`run ${run.id} could not be claimed`);
    const sessionId = `${run.id}-session`;
    for (const seq of [1, 2]) {
      await commitStep(database, run.id, claim.fencingToken, {
        sessions: seq === 1 ? [{ ...rootSession(sessionId), chunkCount: 1 }] : [],
        chunks: [userChunk(sessionId, seq - 1)],
        events: [{ type: "node.completed", payload: { writer: label, seq } }],
        checkpoint: { seq, planHash: PLAN_HASH, state: { seq }, nextNodes: [], pendingInterrupts: [], effectWatermark: 0 },
      });
    }
    await transition(database, run.id, claim.run.version, "succeeded", { reason: "done", fencingToken: claim.fencingToken, output: { label } });
  } catch (error) {
    errors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  }
}
console.log(JSON.stringify({ runIds, errors }));
await database.close();
