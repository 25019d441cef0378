/**
 * Encryption at rest for secrets stored in the database (provider API keys): AES-256-GCM (node:crypto) with a
 * 32-byte key from RATH_SECRET_KEY (64 hex digits or base64), else from a key file generated on first use with
 * mode 0600: `secret.key` next to the SQLite database (`.rath/secret.key` for the default `.rath/studio.db`), or
 * `.rath/secret.key` under the working directory for PostgreSQL. A stored value is
 * `enc:v1:<iv>:<tag>:<ciphertext>` (base64); the associated data names what it is (e.g. the provider), so a value
 * copied into another row does not decrypt. Values without the prefix are legacy plaintext (read as they are and
 * re-encrypted by the store).
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { RathError } from "../../runtime/errors";
import type { DatabaseLocation } from "./database-url";

const PREFIX = "enc:v1:";
const KEY_BYTES = 32;
const IV_BYTES = 12;

/** Where the key came from, for error messages (never the key). */
export interface SecretKey {
  readonly key: Buffer;
  readonly source: string;
}

type Environment = Readonly<Record<string, string | undefined>>;

/** Parses a 32-byte key written as 64 hex digits or as base64; anything else is `invalid_config` naming `source`. */
export function parseSecretKey(text: string, source: string): Buffer {
  const value = text.trim();
  if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, "hex");
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) {
    const decoded = Buffer.from(value, value.includes("-") || value.includes("_") ? "base64url" : "base64");
    if (decoded.length === KEY_BYTES) return decoded;
  }
  throw new RathError(
    "invalid_config",
    `${source} must be a 32-byte key written as 64 hex digits or base64 (e.g. the output of \`openssl rand -base64 32\`); found ${value.length} characters that are neither`,
  );
}

/** The key file used when RATH_SECRET_KEY is not set. */
export function secretKeyFile(location: DatabaseLocation, workingDirectory: string = process.cwd()): string {
  return location.provider === "sqlite" ? path.join(path.dirname(location.filePath), "secret.key") : path.resolve(workingDirectory, ".rath", "secret.key");
}

const cache = new Map<string, SecretKey>();

/**
 * The key for a database: RATH_SECRET_KEY when set, else its key file (created with a random key, mode 0600, when
 * missing; a file readable by others is narrowed to 0600). Cached per source.
 */
export function secretKeyFor(location: DatabaseLocation, environment: Environment = process.env): SecretKey {
  const fromEnvironment = environment.RATH_SECRET_KEY;
  if (fromEnvironment !== undefined && fromEnvironment.trim() !== "") {
    const cacheKey = `env:${fromEnvironment}`;
    const cached = cache.get(cacheKey);
    if (cached) return cached;
    const secretKey = { key: parseSecretKey(fromEnvironment, "RATH_SECRET_KEY"), source: "RATH_SECRET_KEY" };
    cache.set(cacheKey, secretKey);
    return secretKey;
  }
  const file = secretKeyFile(location);
  const cached = cache.get(`file:${file}`);
  if (cached) return cached;
  const secretKey = { key: readOrCreateKeyFile(file), source: file };
  cache.set(`file:${file}`, secretKey);
  return secretKey;
}

function readOrCreateKeyFile(file: string): Buffer {
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(KEY_BYTES).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
      throw new RathError("invalid_config", `cannot create the secret key file ${file}: ${(error as Error).message}; set RATH_SECRET_KEY instead`);
    }
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  return parseSecretKey(readFileSync(file, "utf8"), `the secret key file ${file}`);
}

/** Forgets cached keys (tests that change RATH_SECRET_KEY or delete key files). */
export function clearSecretKeyCache(): void {
  cache.clear();
}

/** True when `stored` is an encrypted value (else legacy plaintext). */
export function isEncryptedSecret(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** Encrypts `plaintext` for storage; `context` (e.g. "provider_settings.api_key:openai") is bound to it. */
export function encryptSecret(plaintext: string, secretKey: SecretKey, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", secretKey.key, iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return `${PREFIX}${iv.toString("base64")}:${cipher.getAuthTag().toString("base64")}:${ciphertext.toString("base64")}`;
}

/**
 * Decrypts a stored value (legacy plaintext is returned as it is). A value that does not decrypt with this key
 * and context is `invalid_config` saying which key was used and what to do, never showing the value.
 */
export function decryptSecret(stored: string, secretKey: SecretKey, context: string, what: string): string {
  if (!isEncryptedSecret(stored)) return stored;
  const [iv, tag, ciphertext] = stored.slice(PREFIX.length).split(":");
  try {
    if (iv === undefined || tag === undefined || ciphertext === undefined) throw new Error("malformed");
    const decipher = createDecipheriv("aes-256-gcm", secretKey.key, Buffer.from(iv, "base64"));
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64")), decipher.final()]).toString("utf8");
  } catch {
    throw new RathError(
      "invalid_config",
      `${what} cannot be decrypted with the secret key from ${secretKey.source}: it was saved with another key (RATH_SECRET_KEY or the key file changed) or the stored value is damaged; restore that key, or save ${what} again in Settings`,
    );
  }
}
