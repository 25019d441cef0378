/** The services of a request to the web server: the process-wide database and in-process run executor. */
import { sharedRuntime } from "../services/shared-runtime";
import type { ApiServices } from "./http/api-door";

/** Opens the services of one request (cheap: the database and worker are opened once per process). */
export async function requestServices(): Promise<ApiServices> {
  const runtime = await sharedRuntime();
  return { database: runtime.database, executor: runtime.executor };
}
