/**
 * One error module for the runtime. Every error carries a `code` from a closed union and says whether it is
 * the user's to fix (bad input or configuration) or a system fault. Messages say what was expected and what
 * was found.
 */

/** Codes for problems in what the caller gave us (input, configuration, files). */
export const USER_ERROR_CODES = [
  "invalid_argument",
  "invalid_session_operation",
  "unknown_kind",
  "different_backends",
  "invalid_file",
  "unsupported_schema_version",
  "invalid_tool_definition",
  "duplicate_tool",
  "invalid_workflow",
  "invalid_memory_uri",
  "invalid_config",
  "not_found",
  "conflict",
  "idempotency_key_reused",
  "cycle_detected",
  "unauthenticated",
  "forbidden",
  "payload_too_large",
  "unsupported_media_type",
] as const;

/** Codes for faults outside the caller's control (providers, sandboxes, I/O). */
export const SYSTEM_ERROR_CODES = [
  "provider_error",
  "provider_unavailable",
  "sandbox_unavailable",
  "sandbox_closed",
  "io_error",
  "mcp_error",
  "budget_exceeded",
  "aborted",
  "internal",
] as const;

export type UserErrorCode = (typeof USER_ERROR_CODES)[number];
export type SystemErrorCode = (typeof SYSTEM_ERROR_CODES)[number];
export type RathErrorCode = UserErrorCode | SystemErrorCode;

const userCodes: ReadonlySet<string> = new Set(USER_ERROR_CODES);

/** Base class of every error the runtime throws on purpose. */
export class RathError extends Error {
  readonly code: RathErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: RathErrorCode, message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "RathError";
    this.code = code;
    this.details = options?.details;
  }

  /** True when the caller can fix the problem (bad input or configuration). */
  get isUserError(): boolean {
    return userCodes.has(this.code);
  }
}

/** Narrowing helper: `isRathError(e, "invalid_file")`. */
export function isRathError(error: unknown, code?: RathErrorCode): error is RathError {
  return error instanceof RathError && (code === undefined || error.code === code);
}
