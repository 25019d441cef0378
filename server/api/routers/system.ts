/** What the studio runs on, for the IDE's shell: the sandbox backend tools use and whether it confines them. */
import { sharedSandboxChoice } from "../../engine/sandbox-choice";
import { procedure, router } from "../trpc";

/** The answer of `system.info` (read-only; no host details beyond the one-line summary). */
export interface SystemInfo {
  sandboxBackend: "local" | "bwrap";
  /** False when tools run unconfined (the IDE shows a notice). */
  confined: boolean;
  /** Whether RATH_SANDBOX_BACKEND chose it (`local` / `bwrap`) or the server did (`auto`: bwrap where available). */
  requested: "local" | "bwrap" | "auto";
  /** Why: e.g. "tools run UNCONFINED on the local backend: bwrap is unavailable (...)". */
  summary: string;
}

/** The `system` router. */
export const systemRouter = router({
  info: procedure.query(async (): Promise<SystemInfo> => {
    const choice = await sharedSandboxChoice();
    return { sandboxBackend: choice.backend, confined: choice.confined, requested: choice.requested, summary: choice.summary };
  }),
});
