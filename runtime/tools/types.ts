import type { z } from "zod";
import type { RunContext } from "../context";
import type { SandboxHandle } from "../sandbox/handle";
import type { ToolErrorKind } from "../session/chunk";
import type { Session } from "../session/session";
import type { ToolPolicy } from "./policy";

/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext {
  /** The active Session (before this round's results are appended). */
  readonly session: Session;
  /** The session's bound sandbox, or null for tools that need none. */
  readonly sandbox: SandboxHandle | null;
  readonly run: RunContext;
  readonly signal: AbortSignal;
  readonly callId: string;
  /** The policy of this dispatch, if any (file tools pass its extra filesystem roots to the sandbox). */
  readonly policy?: ToolPolicy;
}

/**
 * A model-visible callable: JSON schema for the model, a TypeScript function for the runtime.
 * Arguments are validated against `parameters` before `execute` is called.
 */
export interface Tool<Args = unknown, Result = unknown> {
  readonly name: string;
  readonly description: string;
  readonly parameters: z.ZodType<Args>;
  /** JSON schema shown to the model (derived from `parameters`, or given by an MCP server). */
  readonly jsonSchema: Record<string, unknown>;
  /** Calls of one round with different resource keys may run concurrently. */
  readonly parallelSafe: boolean;
  /** Serialisation key for parallel dispatch; null means "its own key". */
  resourceKey(args: Args): string | null;
  /** Safe to repeat after a crash (durable effect ledger). */
  readonly idempotent: boolean;
  execute(args: Args, context: ToolContext): Promise<Result>;
}

/** A tool failure that maps to a specific error kind in the tool_result (instead of tool_execution_exception). */
export class ToolFailure extends Error {
  constructor(
    readonly kind: ToolErrorKind,
    message: string,
    readonly detail?: unknown,
  ) {
    super(message);
    this.name = "ToolFailure";
  }
}
