/**
 * tRPC set-up: the context every procedure receives (the database, the run executor and the caller's principal),
 * the error formatter and the one procedure builder routers use. Two middlewares run before every procedure:
 * `requireAccess` (no principal: 401 `unauthenticated`; `authorize` says no, or a share link names another run:
 * 403 `forbidden`) and `mapErrors`,
 * which turns whatever is thrown into the mapped TRPCError (errors.ts); the formatter puts the mapped body (code,
 * problems, fieldErrors) in `data` and never a stack.
 */
import { initTRPC } from "@trpc/server";
import { RathError } from "../../runtime/errors";
import { authorize, SIGN_IN_REQUIRED, type Principal } from "../auth/principal";
import { checkShareScope } from "../auth/share-scope";
import type { Database } from "../db/database";
import type { RunExecutor } from "../services/run-executor";
import { mappedErrorOf, toTRPCError, type ApiErrorBody } from "./errors";

/** What every procedure can use. */
export interface ApiContext {
  database: Database;
  executor: RunExecutor;
  /** Who is calling; null when nobody signed in on a studio that requires it (every procedure then answers 401). */
  principal: Principal | null;
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

/** The one access check of the API: every procedure, of every router, nested or not, subscriptions included. */
const requireAccess = t.middleware(async ({ ctx, next, path, type, getRawInput }) => {
  if (ctx.principal === null) {
    throw new RathError("unauthenticated", SIGN_IN_REQUIRED);
  }
  const refusal = authorize(ctx.principal, { name: path, kind: type === "mutation" ? "write" : "read" });
  if (refusal !== null) throw new RathError("forbidden", refusal);
  // A share link reads one run: the run or session this call names must be that run's (server/auth/share-scope.ts).
  if (ctx.principal.kind === "share-token") await checkShareScope(ctx.database, ctx.principal, path, await getRawInput());
  return next({ ctx: { principal: ctx.principal } });
});

/** Builds routers. */
export const router = t.router;

/** The procedure every router uses: access checked and errors mapped, each in one place. */
export const procedure = t.procedure.use(mapErrors).use(requireAccess);

/** Makes a server-side caller factory for a router (tests, server components). */
export const createCallerFactory = t.createCallerFactory;
