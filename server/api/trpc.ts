/**
 * tRPC set-up: the context every procedure receives (the database and the run executor), the error formatter
 * and the one procedure builder routers use. Errors go through errors.ts once: a middleware turns whatever a
 * procedure throws into the mapped TRPCError, and the formatter puts the mapped body (code, problems,
 * fieldErrors) in `data` and never a stack.
 */
import { initTRPC } from "@trpc/server";
import type { Database } from "../db/database";
import type { RunExecutor } from "../services/run-executor";
import { mappedErrorOf, toTRPCError, type ApiErrorBody } from "./errors";

/** What every procedure can use. */
export interface ApiContext {
  database: Database;
  executor: RunExecutor;
}

/** The `data` of every tRPC error: the mapped body plus tRPC's code, the HTTP status and the procedure path. */
export type ApiErrorData = ApiErrorBody & { trpcCode: string; httpStatus: number; path: string | null };

const t = initTRPC.context<ApiContext>().create({
  errorFormatter({ shape, error, path }) {
    const mapped = mappedErrorOf(error, path);
    const data: ApiErrorData = { ...mapped.body, trpcCode: mapped.trpcCode, httpStatus: mapped.httpStatus, path: path ?? null };
    return { code: shape.code, message: mapped.body.message, data };
  },
  sse: {
    ping: { enabled: true, intervalMs: 5_000 },
    client: { reconnectAfterInactivityMs: 15_000 },
  },
});

const mapErrors = t.middleware(async ({ next, path }) => {
  const result = await next();
  if (!result.ok) throw toTRPCError(result.error, path);
  return result;
});

/** Builds routers. */
export const router = t.router;

/** The procedure every router uses: errors mapped in one place. */
export const procedure = t.procedure.use(mapErrors);

/** Makes a server-side caller factory for a router (tests, server components). */
export const createCallerFactory = t.createCallerFactory;
