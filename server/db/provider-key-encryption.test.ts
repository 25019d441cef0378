/**
 * Provider keys at rest: AES-256-GCM with RATH_SECRET_KEY or the database's key file (mode 0600). The SQLite file
 * and its WAL never hold the plaintext; a legacy plaintext row is read and encrypted in place; a key saved under
 * another secret key fails with a clear error for that provider only.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import { openDatabase, type Database } from "./database";
import {
  listProviderSettings,
  readProviderApiKeyForEngine,
  rememberStoredProviderKeys,
  saveProviderSetting,
} from "./provider-settings-store";
import { clearSecretKeyCache, decryptSecret, encryptSecret, parseSecretKey, secretKeyFile } from "./secret-box";
import { describeEachDatabase } from "./testing/test-databases";

const KEY = "acme_live_plaintext_never_on_disk_4242";
const saved = process.env.RATH_SECRET_KEY;

beforeEach(() => {
  delete process.env.RATH_SECRET_KEY;
  clearSecretKeyCache();
});
afterEach(() => {
  if (saved === undefined) delete process.env.RATH_SECRET_KEY;
  else process.env.RATH_SECRET_KEY = saved;
  clearSecretKeyCache();
});

/** Every byte of the database file and its WAL, as latin1 text (what `grep -a` would see). */
function fileBytes(database: Database): string {
  const file = (database.location as { filePath: string }).filePath;
  return [file, `${file}-wal`].map((name) => readFileSync(name, { flag: "r" }).toString("latin1")).join("\n");
}

describe("the secret key", () => {
  it("accepts 32 bytes as 64 hex digits or base64, and refuses anything else naming the variable", () => {
    const bytes = randomBytes(32);
    expect(parseSecretKey(bytes.toString("hex"), "RATH_SECRET_KEY").equals(bytes)).toBe(true);
    expect(parseSecretKey(` ${bytes.toString("base64")}\n`, "RATH_SECRET_KEY").equals(bytes)).toBe(true);
    for (const bad of ["hunter2", randomBytes(16).toString("hex"), randomBytes(31).toString("base64"), "z".repeat(64)]) {
      expect(() => parseSecretKey(bad, "RATH_SECRET_KEY")).toThrow(/^RATH_SECRET_KEY must be a 32-byte key written as 64 hex digits or base64/);
    }
  });

  it("is bound to what it encrypts: another key or another provider's row does not decrypt", () => {
    const first = { key: randomBytes(32), source: "first" };
    const second = { key: randomBytes(32), source: "second" };
    const stored = encryptSecret(KEY, first, "provider_settings.api_key:acme");
    expect(stored).toMatch(/^enc:v1:/);
    expect(stored).not.toContain(KEY);
    expect(decryptSecret(stored, first, "provider_settings.api_key:acme", "the key")).toBe(KEY);
    expect(() => decryptSecret(stored, second, "provider_settings.api_key:acme", "the key")).toThrow(/cannot be decrypted with the secret key from second/);
    expect(() => decryptSecret(stored, first, "provider_settings.api_key:other", "the key")).toThrow(/cannot be decrypted/);
  });
});

describe("provider keys in an SQLite database", () => {
  let directory = "";
  let database: Database;

  beforeEach(async () => {
    directory = mkdtempSync(path.join(os.tmpdir(), "rath-key-at-rest-"));
    database = await openDatabase({ url: `file:${path.join(directory, "studio.db")}` });
  });
  afterEach(async () => {
    await database.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it("never writes the plaintext to the database file or its WAL, before or after a checkpoint; the engine reads it back", async () => {
    await saveProviderSetting(database, { name: "acme", kind: "openai", apiKey: KEY });
    await saveProviderSetting(database, { name: "acme", kind: "openai", model: "m2" });
    expect(fileBytes(database)).toContain("acme");
    expect(fileBytes(database)).not.toContain(KEY);
    await database.client.$queryRawUnsafe("PRAGMA wal_checkpoint(TRUNCATE)");
    expect(fileBytes(database)).not.toContain(KEY);
    const row = await database.client.providerSetting.findUnique({ where: { name: "acme" } });
    expect(row?.apiKey).toMatch(/^enc:v1:/);
    expect(await readProviderApiKeyForEngine(database, "acme")).toBe(KEY);
  });

  it("generates the key file next to the database with mode 0600 and keeps using it", async () => {
    await saveProviderSetting(database, { name: "acme", kind: "openai", apiKey: KEY });
    const file = secretKeyFile(database.location);
    expect(file).toBe(path.join(directory, "secret.key"));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const key = readFileSync(file, "utf8");
    clearSecretKeyCache();
    expect(await readProviderApiKeyForEngine(database, "acme")).toBe(KEY);
    expect(readFileSync(file, "utf8")).toBe(key);
  });

  it("reads a legacy plaintext key and encrypts it in place", async () => {
    await database.client.providerSetting.create({ data: { name: "legacy", kind: "openai", apiKey: KEY } });
    await rememberStoredProviderKeys(database);
    const row = await database.client.providerSetting.findUnique({ where: { name: "legacy" } });
    expect(row?.apiKey).toMatch(/^enc:v1:/);
    expect(row?.apiKey).not.toContain(KEY);
    expect(await readProviderApiKeyForEngine(database, "legacy")).toBe(KEY);
  });

  it("with another secret key: a clear error for the affected provider, the other settings keep working", async () => {
    process.env.RATH_SECRET_KEY = randomBytes(32).toString("base64");
    clearSecretKeyCache();
    await saveProviderSetting(database, { name: "acme", kind: "openai", baseUrl: "http://127.0.0.1:9/v1", apiKey: KEY });
    process.env.RATH_SECRET_KEY = randomBytes(32).toString("hex");
    clearSecretKeyCache();

    const caught = await readProviderApiKeyForEngine(database, "acme").catch((error: unknown) => error);
    expect(isRathError(caught, "invalid_config")).toBe(true);
    expect((caught as Error).message).toBe(
      "the API key of provider 'acme' cannot be decrypted with the secret key from RATH_SECRET_KEY: it was saved with another key (RATH_SECRET_KEY or the key file changed) or the stored value is damaged; restore that key, or save the API key of provider 'acme' again in Settings",
    );
    expect((caught as Error).message).not.toContain(KEY);
    await expect(rememberStoredProviderKeys(database)).resolves.toBeUndefined();
    expect(await listProviderSettings(database)).toMatchObject([{ name: "acme", hasApiKey: true, baseUrl: "http://127.0.0.1:9/v1" }]);
    await saveProviderSetting(database, { name: "other", kind: "anthropic", apiKey: "sk-ant-other-provider-key" });
    expect(await readProviderApiKeyForEngine(database, "other")).toBe("sk-ant-other-provider-key");
    await saveProviderSetting(database, { name: "acme", kind: "openai", apiKey: "acme_saved_again_0001" });
    expect(await readProviderApiKeyForEngine(database, "acme")).toBe("acme_saved_again_0001");
  });

  it("refuses a malformed RATH_SECRET_KEY when a key is saved, storing nothing", async () => {
    process.env.RATH_SECRET_KEY = "not-a-key";
    await expect(saveProviderSetting(database, { name: "acme", kind: "openai", apiKey: KEY })).rejects.toThrow(/^RATH_SECRET_KEY must be a 32-byte key/);
    expect(await listProviderSettings(database)).toEqual([]);
  });
});

describeEachDatabase("provider keys at rest", (open) => {
  it("are stored encrypted on both databases and read back", async () => {
    const { database } = await open();
    await saveProviderSetting(database, { name: "acme", kind: "openai", apiKey: KEY });
    const row = await database.client.providerSetting.findUnique({ where: { name: "acme" } });
    expect(row?.apiKey).toMatch(/^enc:v1:/);
    expect(JSON.stringify(row)).not.toContain(KEY);
    expect(await readProviderApiKeyForEngine(database, "acme")).toBe(KEY);
  });
});
