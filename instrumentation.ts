/**
 * Next.js start-up hook: in the Node.js runtime, opens the database (applying migrations) and starts the
 * in-process engine worker in embedded mode, so runs left queued by an earlier server are executed without
 * waiting for a request. See server/engine/embedded-worker.ts for when it is skipped.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startEmbeddedWorker } = await import("./server/engine/start-embedded-worker");
    await startEmbeddedWorker();
  }
}
