/** The API's root router: one sub-router per entity. The IDE imports `AppRouter` as a type only. */
import { accountRouter } from "./routers/account";
import { runsRouter } from "./routers/runs";
import { sessionsRouter } from "./routers/sessions";
import { settingsRouter } from "./routers/settings";
import { shareLinksRouter } from "./routers/share-links";
import { systemRouter } from "./routers/system";
import { templatesRouter } from "./routers/templates";
import { transferRouter } from "./routers/transfer";
import { workflowsRouter } from "./routers/workflows";
import { createCallerFactory, router } from "./trpc";

/** Every procedure of the API. */
export const appRouter = router({
  workflows: workflowsRouter,
  runs: runsRouter,
  sessions: sessionsRouter,
  settings: settingsRouter,
  transfer: transferRouter,
  system: systemRouter,
  account: accountRouter,
  templates: templatesRouter,
  shareLinks: shareLinksRouter,
});

/** The router's type, for `createTRPCClient<AppRouter>` and the TanStack Query integration. */
export type AppRouter = typeof appRouter;

/** Server-side callers: `createCaller({ database, executor })` (tests, server components). */
export const createCaller = createCallerFactory(appRouter);
