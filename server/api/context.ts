/** The context of a request to the web server: the process-wide database and in-process run executor. */
import { sharedRuntime } from "../services/shared-runtime";
import type { ApiContext } from "./trpc";

/** Creates the context of one request (cheap: the database and worker are opened once per process). */
export async function createRequestContext(): Promise<ApiContext> {
  const runtime = await sharedRuntime();
  return { database: runtime.database, executor: runtime.executor };
}
