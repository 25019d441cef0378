/**
 * The second line of defence for secrets: every configured secret value — the API keys and other secrets in the
 * server's environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, RATH_SECRET_KEY, any *_API_KEY / *_SECRET / *_TOKEN /
 * *_PASSWORD), the password of DATABASE_URL, and the provider keys saved in settings — is replaced by `[REDACTED]`
 * in every JSON value the store writes for a run (chunks, events, effect-ledger rows, checkpoints, run output and
 * errors, interrupts, and workflow memory documents): `toJsonText` (json-text.ts) calls `redactStoredText` on its
 * way to the database (memory-documents.ts and plain-text error columns call it directly), so a tool
 * that printed a key (on `local` it can read the server's environment) stores `[REDACTED]`, and everything made
 * from the stored rows (the IDE, the HTTP API, both export dialects) never sees the key.
 *
 * The set is process-wide: the environment's values are read once (and again with `refreshEnvironmentSecrets`,
 * which every run execution calls), settings keys are added when saved or read (and all of them when a run starts).
 * A key once known stays known (a rotated-out key is still a secret).
 */

/** What a secret is replaced with. */
export const REDACTED = "[REDACTED]";

/** Saved values shorter than this are never treated as secrets (they would redact ordinary words). */
export const MIN_SECRET_LENGTH = 8;

/** Environment values shorter than this are not taken (a `*_TOKEN=enabled` is not a key; real keys are longer). */
export const MIN_ENVIRONMENT_SECRET_LENGTH = 12;

/** Names of environment variables whose values are secrets. */
const SECRET_VARIABLE = /(^|_)(API_?KEY|SECRET|SECRET_?KEY|TOKEN|ACCESS_?KEY|PASSWORD|PASSWD|PRIVATE_?KEY|CREDENTIALS?)($|_)/i;

type Environment = Readonly<Record<string, string | undefined>>;

let environmentSecrets: string[] | null = null;
const rememberedSecrets = new Set<string>();
/** Longest first, so a secret that contains another is replaced whole; rebuilt when the set changes. */
let ordered: Array<{ raw: string; escaped: string }> | null = null;

/** The secret values of an environment: variables named like secrets, and the password of DATABASE_URL. */
export function secretsOfEnvironment(environment: Environment): string[] {
  const values: string[] = [];
  // Names first: only the values of secret-named variables are read (each read of process.env is a native call).
  for (const name of Object.keys(environment)) {
    if (!SECRET_VARIABLE.test(name)) continue;
    const value = environment[name];
    if (value !== undefined) values.push(value.trim());
  }
  const url = environment.DATABASE_URL;
  if (url) {
    try {
      const password = decodeURIComponent(new URL(url).password);
      if (password) values.push(password);
    } catch {
      // Not a URL: nothing to take from it.
    }
  }
  return values.filter((value) => value.length >= MIN_ENVIRONMENT_SECRET_LENGTH);
}

/** Re-reads the secrets of the environment (default process.env). */
export function refreshEnvironmentSecrets(environment: Environment = process.env): void {
  environmentSecrets = secretsOfEnvironment(environment);
  ordered = null;
}

/** Adds secret values (e.g. a provider key just saved or read); short or empty values are ignored. */
export function rememberSecrets(values: ReadonlyArray<string | null | undefined>): void {
  for (const value of values) {
    if (typeof value === "string" && value.length >= MIN_SECRET_LENGTH && !rememberedSecrets.has(value)) {
      rememberedSecrets.add(value);
      ordered = null;
    }
  }
}

function secrets(): Array<{ raw: string; escaped: string }> {
  if (environmentSecrets === null) refreshEnvironmentSecrets();
  if (ordered === null) {
    const all = [...new Set([...(environmentSecrets ?? []), ...rememberedSecrets])].sort((left, right) => right.length - left.length);
    // Inside JSON text a secret appears escaped ("\"", "\\", control characters); ordinary keys are unchanged.
    ordered = all.map((raw) => ({ raw, escaped: JSON.stringify(raw).slice(1, -1) }));
  }
  return ordered;
}

/**
 * Replaces every known secret in `text` (plain text, or JSON text: the JSON-escaped form is replaced too, which
 * keeps the JSON valid) with `[REDACTED]`.
 */
export function redactStoredText(text: string): string {
  let result = text;
  for (const { raw, escaped } of secrets()) {
    if (result.includes(raw)) result = result.split(raw).join(REDACTED);
    if (escaped !== raw && result.includes(escaped)) result = result.split(escaped).join(REDACTED);
  }
  return result;
}
