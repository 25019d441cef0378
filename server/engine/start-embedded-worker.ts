/**
 * Start-up of embedded mode (called by instrumentation.ts in the Next.js Node.js runtime): decides from the
 * environment (embedded-worker.ts), then starts the process's shared in-process worker on the shared database
 * (server/services/shared-runtime.ts, which applies migrations when it opens the database).
 */
import { embeddedWorkerDecision } from "./embedded-worker";

/** Starts the embedded worker when the environment allows it; logs what it decided. Never throws. */
export async function startEmbeddedWorker(environment: Readonly<Record<string, string | undefined>> = process.env): Promise<boolean> {
  const decision = embeddedWorkerDecision(environment);
  console.info(`[rath] ${decision.reason}`);
  if (!decision.start) return false;
  try {
    const { sharedRuntime } = await import("../services/shared-runtime");
    await sharedRuntime();
    return true;
  } catch (error) {
    console.error("[rath] the embedded worker did not start; runs start on the first API request instead", error);
    return false;
  }
}
