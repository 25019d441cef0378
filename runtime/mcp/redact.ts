/** What a redacted secret is replaced with. */
export const REDACTED = "[redacted]";

/** Replaces every occurrence of each secret in `text` (longest first, so a secret containing another is caught whole). */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of [...secrets].sort((left, right) => right.length - left.length)) {
    if (secret.length === 0) continue;
    result = result.split(secret).join(REDACTED);
  }
  return result;
}

/** The message of anything thrown, for building error text (never the object itself, which may hold a config). */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === "string" ? error : "unknown error";
}
