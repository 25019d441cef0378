/**
 * A child process of `seed-examples-concurrency.test.ts`: opens the database of DATABASE_URL, prints `ready`, waits
 * for a line on stdin (so all seeders start together), seeds the examples as a starting studio does, and prints one
 * JSON line `{ "workflowIds": [...], "laidOut": [...], "error": string | null }`.
 */
import { openDatabase } from "../../db/database";
import { seedExampleWorkflows } from "../seed-examples";
import { readyThenWaitForGo } from "../../db/testing/wait-for-go";

const database = await openDatabase();
await readyThenWaitForGo();
let report: { workflowIds: string[]; laidOut: string[]; error: string | null };
try {
  const { workflowIds, laidOut } = await seedExampleWorkflows(database);
  report = { workflowIds, laidOut, error: null };
} catch (error) {
  report = { workflowIds: [], laidOut: [], error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}
console.log(JSON.stringify(report));
await database.close();
