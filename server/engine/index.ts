/** The durable engine's public API: workers, in-process execution, decisions and reviews (see README.md). */
export { embeddedWorkerDecision, type EmbeddedWorkerDecision } from "./embedded-worker";
export { ExecutionState, initialExecutionState, type ReadyStep, type SessionMeta, type SuspendedStep } from "./execution-state";
export { effectKey, ledgerEffectHooks, type EffectScope } from "./ledger-effect-hooks";
export { createProviderResolver, DEMO_PROVIDER_NAMES, type ProviderResolver, type ProviderResolverOptions } from "./provider-resolver";
export { DEFAULT_STEP_RETRIES, executeClaimedRun, inputText, type ExecutionOutcome, type ExecutorOptions } from "./run-executor";
export { approvalDecisionOf, earliestApprovalExpiry, interruptExpiry, submitDecision, toApprovalDecision } from "./run-interrupts";
export { runTimeout, settingsOfSpec } from "./run-deadline";
export { AmbiguousEffectOutcome, resolveReview, ReviewResolution } from "./run-review";
export { isSettledRunStatus, runToCompletion, type RunToCompletionOptions } from "./run-to-completion";
export { createWorker, defaultWorkerId, type Worker, type WorkerOptions } from "./worker";
