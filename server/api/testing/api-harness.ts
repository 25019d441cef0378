/**
 * Test helpers for the API: a caller on a real database (runs stay queued until the test executes them with the
 * engine's runToCompletion), the example specs, row counts to prove that a refused request wrote nothing, and
 * the `data` of a tRPC error.
 */
import { getTRPCErrorShape, TRPCError } from "@trpc/server";
import { expect } from "vitest";
import { ANONYMOUS_LOOPBACK, type Principal } from "../../auth/principal";
import type { Database } from "../../db/database";
import { EXAMPLE_SPECS } from "../../engine/spec/examples";
import { QUEUE_ONLY_EXECUTOR } from "../../services/run-executor";
import { appRouter, createCaller } from "../root";
import type { ApiErrorData } from "../trpc";

/** A server-side caller whose runs wait in the queue (the test runs them); the local user of a loopback studio by default. */
export function callerFor(database: Database, principal: Principal | null = ANONYMOUS_LOOPBACK): ReturnType<typeof createCaller> {
  return createCaller({ database, executor: QUEUE_ONLY_EXECUTOR, principal });
}

/** An example spec by slug (a deep copy, safe to change). */
export function exampleSpec(slug: "hello-agent" | "fork-merge-research" | "selector-loop" | "approval"): Record<string, unknown> {
  return structuredClone(EXAMPLE_SPECS[slug]) as Record<string, unknown>;
}

/** Row counts of every table the API writes, to compare before and after a refused request. */
export async function rowCounts(database: Database): Promise<Record<string, number>> {
  const client = database.client;
  const [workflows, revisions, runs, events, sessions, parents, chunks, providers] = await Promise.all([
    client.workflow.count(),
    client.workflowRevision.count(),
    client.run.count(),
    client.runEvent.count(),
    client.session.count(),
    client.sessionParent.count(),
    client.chunk.count(),
    client.providerSetting.count(),
  ]);
  return { workflows, revisions, runs, events, sessions, parents, chunks, providers };
}

/**
 * Awaits a call that must fail with `trpcCode` and returns the error as a client receives it: the shape made by the
 * router's own error formatter (server-side callers throw the raw TRPCError, so the formatter is applied here).
 */
export async function expectApiError(promise: Promise<unknown>, trpcCode: string): Promise<ApiErrorData> {
  const error = await promise.then(
    () => {
      throw new Error(`expected the call to fail with ${trpcCode}, but it succeeded`);
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TRPCError);
  expect((error as TRPCError).code).toBe(trpcCode);
  return formattedShape(error as TRPCError).data;
}

/** The error shape the router's formatter makes for an error (what goes over the wire). */
export function formattedShape(error: TRPCError): { message: string; code: number; data: ApiErrorData } {
  return getTRPCErrorShape({ config: appRouter._def._config, error, type: "query", path: "test", input: undefined, ctx: undefined });
}
