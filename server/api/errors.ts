/**
 * The one place where errors become API errors, shared by tRPC (trpc.ts) and the plain HTTP routes (http/).
 * A RathError keeps its code and message when it is the caller's to fix; zod failures are flattened per field;
 * a workflow spec's validation problems travel as `problems`; anything else is an internal error whose detail
 * stays in the server log (the client gets a reference id, never a stack or a message from inside).
 */
import { randomUUID } from "node:crypto";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { isRathError, type RathErrorCode } from "../../runtime/errors";
import { Problem } from "../../runtime/workflow-spec/problems";

/** The JSON body of an error, as the HTTP API writes it under `error` and tRPC under `data`. */
export interface ApiErrorBody {
  /** A RathError code (`invalid_argument`, `not_found`, `conflict`, `invalid_workflow`, ...) or `internal`. */
  code: string;
  message: string;
  /** A workflow spec's validation problems, each tied to a node or edge. */
  problems?: Problem[];
  /** zod failures by field path (`input.priority`), for forms. */
  fieldErrors?: Record<string, string[]>;
  /** zod failures that belong to no field. */
  formErrors?: string[];
  /** For internal errors: the id under which the server logged the detail. */
  reference?: string;
}

/** An error mapped for both transports. */
export interface MappedError {
  /** The tRPC code (decides tRPC's own HTTP status). */
  trpcCode: TRPC_ERROR_CODE_KEY;
  /** The status of the plain HTTP API (422 for spec problems, where tRPC says BAD_REQUEST). */
  httpStatus: number;
  body: ApiErrorBody;
}

const RATH_CODE_TO_TRPC: Readonly<Record<RathErrorCode, { trpc: TRPC_ERROR_CODE_KEY; http: number }>> = {
  invalid_argument: { trpc: "BAD_REQUEST", http: 400 },
  invalid_session_operation: { trpc: "BAD_REQUEST", http: 400 },
  unknown_kind: { trpc: "BAD_REQUEST", http: 400 },
  different_backends: { trpc: "BAD_REQUEST", http: 400 },
  invalid_file: { trpc: "BAD_REQUEST", http: 400 },
  unsupported_schema_version: { trpc: "BAD_REQUEST", http: 400 },
  invalid_tool_definition: { trpc: "BAD_REQUEST", http: 400 },
  duplicate_tool: { trpc: "BAD_REQUEST", http: 400 },
  invalid_workflow: { trpc: "BAD_REQUEST", http: 422 },
  invalid_memory_uri: { trpc: "BAD_REQUEST", http: 400 },
  invalid_config: { trpc: "BAD_REQUEST", http: 400 },
  cycle_detected: { trpc: "BAD_REQUEST", http: 400 },
  unauthenticated: { trpc: "UNAUTHORIZED", http: 401 },
  forbidden: { trpc: "FORBIDDEN", http: 403 },
  payload_too_large: { trpc: "PAYLOAD_TOO_LARGE", http: 413 },
  unsupported_media_type: { trpc: "UNSUPPORTED_MEDIA_TYPE", http: 415 },
  not_found: { trpc: "NOT_FOUND", http: 404 },
  conflict: { trpc: "CONFLICT", http: 409 },
  idempotency_key_reused: { trpc: "UNPROCESSABLE_CONTENT", http: 422 },
  budget_exceeded: { trpc: "BAD_REQUEST", http: 400 },
  aborted: { trpc: "CLIENT_CLOSED_REQUEST", http: 499 },
  provider_error: { trpc: "INTERNAL_SERVER_ERROR", http: 500 },
  provider_unavailable: { trpc: "INTERNAL_SERVER_ERROR", http: 500 },
  sandbox_unavailable: { trpc: "INTERNAL_SERVER_ERROR", http: 500 },
  sandbox_closed: { trpc: "INTERNAL_SERVER_ERROR", http: 500 },
  io_error: { trpc: "INTERNAL_SERVER_ERROR", http: 500 },
  mcp_error: { trpc: "INTERNAL_SERVER_ERROR", http: 500 },
  internal: { trpc: "INTERNAL_SERVER_ERROR", http: 500 },
};

/** HTTP status of each tRPC code this module produces (the values tRPC itself uses). */
const TRPC_TO_HTTP: Partial<Record<TRPC_ERROR_CODE_KEY, number>> = {
  BAD_REQUEST: 400,
  PARSE_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  TIMEOUT: 408,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE_CONTENT: 422,
  TOO_MANY_REQUESTS: 429,
  CLIENT_CLOSED_REQUEST: 499,
};

const ProblemList = z.array(Problem);

function isZodError(error: unknown): error is z.ZodError {
  return error instanceof z.ZodError || (error instanceof Error && error.name === "ZodError" && Array.isArray((error as z.ZodError).issues));
}

function flattenZod(error: z.ZodError): Pick<ApiErrorBody, "fieldErrors" | "formErrors" | "message"> {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const issue of error.issues) {
    if (issue.path.length === 0) {
      formErrors.push(issue.message);
      continue;
    }
    const key = issue.path.map(String).join(".");
    (fieldErrors[key] ??= []).push(issue.message);
  }
  const first = error.issues[0];
  const where = first === undefined || first.path.length === 0 ? "" : `${first.path.map(String).join(".")}: `;
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : "";
  return { fieldErrors, formErrors, message: `invalid input: ${where}${first?.message ?? "unknown problem"}${more}` };
}

/** Removes credentials from text bound for the log: passwords in URLs, bearer tokens and API-key-like strings. */
export function redactSecrets(text: string): string {
  return text
    .replace(/([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*):[^@/\s]*@/gi, "$1:***@")
    .replace(/(bearer\s+)[A-Za-z0-9._~+/=-]+/gi, "$1***")
    .replace(/\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}/g, "$1-***")
    .replace(/((?:api[_-]?key|token|secret|password)["']?\s*[:=]\s*["']?)[^"'\s,}]+/gi, "$1***");
}

/** Logs an unexpected error server-side with a fresh reference id: name, message and stack, credentials redacted. */
function logInternal(error: unknown, where: string | undefined): string {
  const reference = randomUUID();
  const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  console.error(`[rath api] internal error ${reference}${where ? ` in ${where}` : ""}: ${redactSecrets(text)}`);
  return reference;
}

/** Unwraps tRPC's wrapper to the error a procedure threw (input parsing failures carry the ZodError as cause). */
function originalError(error: unknown): unknown {
  if (error instanceof TRPCError && error.cause !== undefined) return error.cause;
  return error;
}

/**
 * Maps any thrown value to the API error both transports send. `where` (a procedure path or route) goes into the
 * server log only.
 */
export function mapError(thrown: unknown, where?: string): MappedError {
  const error = originalError(thrown);
  if (isZodError(error)) {
    return { trpcCode: "BAD_REQUEST", httpStatus: 400, body: { code: "invalid_argument", ...flattenZod(error) } };
  }
  if (isRathError(error)) {
    const target = RATH_CODE_TO_TRPC[error.code];
    if (target.http >= 500) {
      return { trpcCode: target.trpc, httpStatus: target.http, body: internalBody(logInternal(error, where)) };
    }
    const problems = ProblemList.safeParse(error.details?.problems);
    return {
      trpcCode: target.trpc,
      httpStatus: target.http,
      body: { code: error.code, message: error.message, ...(problems.success ? { problems: problems.data } : {}) },
    };
  }
  if (thrown instanceof TRPCError) {
    const status = TRPC_TO_HTTP[thrown.code];
    if (status !== undefined) {
      return { trpcCode: thrown.code, httpStatus: status, body: { code: thrown.code.toLowerCase(), message: thrown.message } };
    }
  }
  return { trpcCode: "INTERNAL_SERVER_ERROR", httpStatus: 500, body: internalBody(logInternal(error, where)) };
}

function internalBody(reference: string): ApiErrorBody {
  return { code: "internal", message: `internal error; the server logged the details under reference ${reference}`, reference };
}

/** The mapped error as a TRPCError (its cause stays the original error, for the formatter and the server log). */
export function toTRPCError(thrown: unknown, where?: string): TRPCError {
  const mapped = mapError(thrown, where);
  const trpcError = new TRPCError({ code: mapped.trpcCode, message: mapped.body.message });
  MAPPED.set(trpcError, mapped);
  return trpcError;
}

const MAPPED = new WeakMap<TRPCError, MappedError>();

/** The mapping `toTRPCError` made for this error, or a fresh one (errors raised before the middleware ran). */
export function mappedErrorOf(error: TRPCError, where?: string): MappedError {
  return MAPPED.get(error) ?? mapError(error, where);
}
