/**
 * Next.js start-up hook: in the Node.js runtime, reads the access policy (an invalid RATH_AUTH, RATH_HOST or
 * RATH_ALLOWED_HOSTS stops the server here, with the reason) and logs where the studio listens and whether
 * sign-in is needed, and which sandbox backend tools run on (a warning when unconfined; a bad
 * RATH_SANDBOX_BACKEND stops the server too); then opens the database (applying migrations) and starts the
 * in-process engine worker in embedded mode, so runs left queued by an earlier server are executed without
 * waiting for a request (see server/engine/embedded-worker.ts for when the worker is skipped), and seeds the
 * example workflows the database has not had yet.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { accessPolicyFromEnvironment } = await import("./server/auth/access-policy");
    console.info(`[rath] ${accessPolicyFromEnvironment(process.env).summary}`);
    // Where tools run: bwrap where available; a bad RATH_SANDBOX_BACKEND stops the server here, with the reason.
    const { logSandboxChoice, sharedSandboxChoice } = await import("./server/engine/sandbox-choice");
    try {
      logSandboxChoice(await sharedSandboxChoice());
    } catch (error) {
      console.error(`[rath] cannot start: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    }
    const { startEmbeddedWorker } = await import("./server/engine/start-embedded-worker");
    await startEmbeddedWorker();
    // The example workflows, once per database, before the first request (server/services/seed-examples.ts).
    const [{ seedExamplesAtStart }, { sharedDatabase }] = await Promise.all([import("./server/services/seed-examples"), import("./server/services/shared-database")]);
    await seedExamplesAtStart(sharedDatabase);
  }
}
