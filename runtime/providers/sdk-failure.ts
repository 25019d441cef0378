import { parseRetryAfter, type ProviderFailure } from "./retry";

/** A class an `instanceof` check can narrow to. */
type ErrorClass<Instance> = abstract new (...args: never[]) => Instance;

/** What an HTTP error from either SDK carries that a {@link ProviderFailure} needs. */
interface SdkApiError {
  status: number | undefined;
  headers: Headers | undefined;
}

/** The error classes both official SDKs (openai, @anthropic-ai/sdk) export, in the same hierarchy. */
export interface SdkErrorClasses<ApiError extends SdkApiError> {
  /** Thrown when the caller's signal aborted the request. */
  userAbort: ErrorClass<Error>;
  /** Thrown when the server could not be reached or the connection broke. */
  connection: ErrorClass<Error>;
  /** Any error the server answered with (the base class of the two above). */
  api: ErrorClass<ApiError>;
}

/** The part of a failure that only the SDK's own error body can tell: the message, and for some errors whether to retry. */
export type ApiErrorDetails = Pick<ProviderFailure, "message" | "retryable">;

/**
 * Turns an error thrown by an SDK into a {@link ProviderFailure}: user aborts, connection errors and HTTP errors
 * (status and Retry-After) alike for both SDKs, with `describeApiError` reading the SDK's error body.
 */
export function describeSdkError<ApiError extends SdkApiError>(
  error: unknown,
  classes: SdkErrorClasses<ApiError>,
  describeApiError: (error: ApiError) => ApiErrorDetails,
): ProviderFailure {
  if (error instanceof classes.userAbort) return { connection: false, aborted: true, message: "aborted" };
  if (error instanceof classes.connection) return { connection: true, aborted: false, message: error.message || "connection error" };
  if (error instanceof classes.api) {
    const retryAfterMs = parseRetryAfter(error.headers);
    return {
      ...(error.status === undefined ? {} : { status: error.status }),
      connection: false,
      aborted: false,
      ...describeApiError(error),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  }
  if (error instanceof Error && error.name === "AbortError") return { connection: false, aborted: true, message: "aborted" };
  return { connection: false, aborted: false, retryable: false, message: error instanceof Error ? error.message : String(error) };
}
