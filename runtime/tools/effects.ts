/** A tool call as the effect ledger sees it before it runs. */
export interface EffectCall {
  readonly callId: string;
  readonly tool: string;
  readonly args: unknown;
  readonly idempotent: boolean;
}

/**
 * Hooks for the durable engine's effect ledger (prepared -> dispatched -> succeeded | failed). Dispatch calls
 * `prepare` for every call that passed validation and policy; when it returns `replayContent` the tool does
 * not run and that content is the result. Otherwise `dispatched` is called just before the tool runs and
 * `settled` with its content afterwards. A hook that throws makes `dispatchToolCalls` reject: the ledger's
 * failure is the run's, not the tool's.
 */
export interface EffectHooks {
  prepare(call: EffectCall): Promise<{ replayContent?: string }>;
  dispatched(callId: string): Promise<void>;
  settled(callId: string, result: { ok: boolean; content: string }): Promise<void>;
}
