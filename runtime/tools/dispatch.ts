import type { RunContext } from "../context";
import { isRathError } from "../errors";
import { isoNow, type ChunkOf, type SandboxRef, type ToolCall, type ToolErrorKind, type ToolEvidence } from "../session/chunk";
import type { Session } from "../session/session";
import type { EffectHooks } from "./effects";
import type { CallCounter, ToolPolicy } from "./policy";
import { prepareCall, type PreparedCall, type ReadyCall } from "./prepare-call";
import type { ToolRegistry } from "./registry";
import { contentOutcome, failureContent, successContent } from "./result-content";
import { planPhases, runPhases } from "./schedule";
import { ToolFailure } from "./types";

/** What `dispatchToolCalls` needs besides the calls. */
export interface DispatchOptions {
  readonly registry: ToolRegistry;
  /** The active session; its bound sandbox (see `bindSandbox`) is where the built-ins run. */
  readonly session: Session;
  readonly run: RunContext;
  /** The agent or node dispatching (each chunk's `producer` is the tool's name, as the spec asks). */
  readonly producer: string;
  readonly policy?: ToolPolicy;
  /** Tool calls of the run so far; pass the same object every round so `maxCalls` counts the whole run. */
  readonly callCounter?: CallCounter;
  readonly effects?: EffectHooks;
}

interface Outcome {
  readonly ok: boolean;
  readonly content: string;
  readonly errorKind?: ToolErrorKind;
  readonly replayed?: boolean;
}

function sandboxRef(session: Session): SandboxRef {
  const handle = session.handle;
  if (handle) return { backend: handle.backend, working_dir: handle.workingDir, handle_id: handle.id };
  return { backend: session.placement.backend ?? "unplaced", working_dir: session.placement.spec?.working_dir ?? null, handle_id: null };
}

function failure(kind: ToolErrorKind, message: string, detail?: unknown): Outcome {
  return { ok: false, content: failureContent(kind, message, detail), errorKind: kind };
}

/** Maps what a tool threw to a tool error: ToolFailure keeps its kind, a closed sandbox is `sandbox_closed`. */
function thrownOutcome(error: unknown): Outcome {
  if (error instanceof ToolFailure) return failure(error.kind, error.message, error.detail);
  if (isRathError(error, "sandbox_closed")) return failure("sandbox_closed", error.message);
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  return failure("tool_execution_exception", `${name}: ${message}`, name);
}

async function execute(prepared: ReadyCall, options: DispatchOptions, signal: AbortSignal): Promise<Outcome> {
  const { tool, call, args } = prepared;
  if (options.effects) {
    const prepareResult = await options.effects.prepare({ callId: call.id, tool: tool.name, args, idempotent: tool.idempotent });
    if (prepareResult.replayContent !== undefined) {
      const outcome = contentOutcome(prepareResult.replayContent);
      return { ok: outcome.ok, content: prepareResult.replayContent, errorKind: outcome.errorKind, replayed: true };
    }
    await options.effects.dispatched(call.id);
  }
  let outcome: Outcome;
  if (signal.aborted) {
    outcome = failure("tool_execution_exception", `call '${call.id}' was not started: the run was aborted`);
  } else {
    try {
      const result = await tool.execute(args, {
        session: options.session,
        sandbox: options.session.handle,
        run: options.run,
        signal,
        callId: call.id,
        policy: options.policy,
      });
      outcome = { ok: true, content: successContent(result) };
    } catch (error) {
      outcome = thrownOutcome(error);
    }
  }
  if (options.effects) await options.effects.settled(call.id, { ok: outcome.ok, content: outcome.content });
  return outcome;
}

async function settle(prepared: PreparedCall, options: DispatchOptions, signal: AbortSignal): Promise<ChunkOf<"tool_result">> {
  const { call } = prepared;
  const name = call.function.name;
  const started = performance.now();
  options.run.emit({ type: "tool.call.started", tool: name, call_id: call.id, args: prepared.args });
  const outcome = prepared.ready ? await execute(prepared, options, signal) : failure(prepared.kind, prepared.message, prepared.detail);
  const durationMs = performance.now() - started;
  const errorKind = outcome.errorKind;
  // Literals in a fixed key order (error_kind between ok and duration_ms, as events and files always had it).
  options.run.emit(
    errorKind
      ? { type: "tool.call.ended", tool: name, call_id: call.id, ok: outcome.ok, error_kind: errorKind, duration_ms: durationMs }
      : { type: "tool.call.ended", tool: name, call_id: call.id, ok: outcome.ok, duration_ms: durationMs },
  );
  const sandbox = sandboxRef(options.session);
  const evidence: ToolEvidence = errorKind
    ? { args: prepared.args, ok: outcome.ok, error_kind: errorKind, duration_ms: durationMs, sandbox, resource_key: prepared.resourceKey }
    : { args: prepared.args, ok: outcome.ok, duration_ms: durationMs, sandbox, resource_key: prepared.resourceKey };
  if (outcome.replayed) evidence.replayed = true;
  return {
    kind: "tool_result",
    payload: { tool_call_id: call.id, name, content: outcome.content },
    meta: { at: isoNow(), producer: name, evidence },
  };
}

/** The signal of a run that cannot be aborted (its controller is unreachable); shared, as making one costs a microsecond per round. */
const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/**
 * Runs one round of model tool calls and returns their tool_result chunks in the original call order.
 * Every call is parsed, validated and checked against the policy first (in call order, so `maxCalls` is
 * deterministic); then parallel-safe calls with different resource keys run concurrently, calls with the
 * same key in order, and a call that is not parallel-safe runs alone. Tool errors never throw: they become
 * `{"ok":false,...}` contents. Only a failing effect hook rejects.
 */
export async function dispatchToolCalls(calls: readonly ToolCall[], options: DispatchOptions): Promise<ChunkOf<"tool_result">[]> {
  const counter = options.callCounter ?? { count: 0 };
  const prepared = calls.map((call) => prepareCall(call, options.registry, options.policy, counter));
  const signal = options.run.signal ?? NEVER_ABORTED;
  // One call (the usual round) is one phase of one lane: settle it without the scheduling layers.
  if (prepared.length === 1) return [await settle(prepared[0] as PreparedCall, options, signal)];
  const phases = planPhases(
    prepared.map((entry) => (entry.ready ? { parallelSafe: entry.tool.parallelSafe, key: entry.resourceKey } : { parallelSafe: true, key: null })),
  );
  return runPhases(phases, prepared.length, (index) => settle(prepared[index] as PreparedCall, options, signal));
}
