/**
 * Next.js start-up hook: in the Node.js runtime, reads the access policy (an invalid RATH_AUTH, RATH_HOST or
 * RATH_ALLOWED_HOSTS stops the server here, with the reason) and logs where the studio listens and whether
 * sign-in is needed; then opens the database (applying migrations) and starts the in-process engine worker in
 * embedded mode, so runs left queued by an earlier server are executed without waiting for a request. See
 * server/engine/embedded-worker.ts for when the worker is skipped.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { accessPolicyFromEnvironment } = await import("./server/auth/access-policy");
    console.info(`[rath] ${accessPolicyFromEnvironment(process.env).summary}`);
    const { startEmbeddedWorker } = await import("./server/engine/start-embedded-worker");
    await startEmbeddedWorker();
  }
}
