/**
 * A child process of `sqlite-concurrency.test.ts`: on the database of DATABASE_URL, claims queued runs with
 * `claimNext`, committing one step for each claimed run, until the database holds `--total` runs and none is
 * queued, while other processes claim from and add to the same queue on the same file. Prints one JSON line `{ "claims": [{ "runId", "fencingToken" }], "errors": [...] }`;
 * waits for a line on stdin before it starts so both claimers start together.
 */
import { openDatabase } from "../database";
import { commitStep } from "../run-commit";
import { claimNext } from "../run-lease";
import { PLAN_HASH } from "./fixtures";
import { readyThenWaitForGo } from "./wait-for-go";

function option(name: string): string {
  const index = process.argv.indexOf(`--${name}`);
  const value = index === -1 ? undefined : process.argv[index + 1];
  if (value === undefined) throw new Error(`queue-claimer needs --${name} <value>`);
  return value;
}

const workerId = option("worker-id");
const total = Number(option("total"));
/** A claimer that never sees `--total` runs stops after this long and reports it. */
const GIVE_UP_MS = 20_000;

const database = await openDatabase();
await readyThenWaitForGo();

const claims: Array<{ runId: string; fencingToken: number }> = [];
const errors: string[] = [];
const started = Date.now();
for (;;) {
  try {
    const claim = await claimNext(database, workerId, 60_000);
    if (claim === null) {
      const stored = await database.client.run.count();
      if (stored >= total) break;
      if (Date.now() - started > GIVE_UP_MS) {
        errors.push(`gave up after ${GIVE_UP_MS} ms: expected ${total} runs, found ${stored}`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    claims.push({ runId: claim.run.id, fencingToken: claim.fencingToken });
    await commitStep(database, claim.run.id, claim.fencingToken, {
      events: [{ type: "node.completed", payload: { worker: workerId } }],
      checkpoint: { seq: 1, planHash: PLAN_HASH, state: { worker: workerId }, nextNodes: [] },
    });
  } catch (error) {
    errors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    if (errors.length > 20) break;
  }
}
console.log(JSON.stringify({ claims, errors }));
await database.close();
