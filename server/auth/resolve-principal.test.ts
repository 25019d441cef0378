/**
 * resolvePrincipal and API keys on SQLite and PostgreSQL: a session cookie is a `user`, a live bearer key an
 * `api-key`; wrong explicit credentials are refused (null: 401) even on a loopback studio without sign-in; keys
 * are stored only as their SHA-256 and stop working when revoked.
 */
import { expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import { describeEachDatabase } from "../db/testing/test-databases";
import { createAccount, signInWithPassword } from "./accounts";
import { createApiKey, hashApiKey, listApiKeys, revokeApiKey, verifyApiKey } from "./api-keys";
import { resolvePrincipal } from "./resolve-principal";
import { loopbackPolicy, signInPolicy } from "./testing/policies";

function request(headers: Record<string, string> = {}): Request {
  return new Request("http://127.0.0.1:3000/api/v1/runs", { headers });
}

describeEachDatabase("API keys and resolvePrincipal", (open) => {
  it("a key is shown once, stored as its SHA-256 with a visible prefix, listed, and dead after revoking", async () => {
    const { database } = await open();
    const ada = await createAccount(database, { email: "ada@example.com", name: "Ada", password: "analytical-engine" });
    const grace = await createAccount(database, { email: "grace@example.com", name: "Grace", password: "hopper-1906!" });
    const { apiKey, key } = await createApiKey(database, ada.id, "  ci script ");
    expect(key).toMatch(/^rath_[A-Za-z0-9_-]{43}$/);
    expect(apiKey).toMatchObject({ name: "ci script", prefix: key.slice(0, 12), lastUsedAt: null });
    const row = await database.client.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
    expect(row.keyHash).toBe(hashApiKey(key));
    expect(JSON.stringify(row)).not.toContain(key);

    const second = await createApiKey(database, ada.id, "laptop");
    expect(second.key).not.toBe(key);
    expect((await listApiKeys(database, ada.id)).map((listed) => listed.name).sort()).toEqual(["ci script", "laptop"]);
    expect(await listApiKeys(database, grace.id)).toEqual([]);

    const usedAt = new Date("2026-11-30T12:00:00Z");
    expect(await verifyApiKey(database, key, usedAt)).toEqual({ userId: ada.id, keyId: apiKey.id });
    expect((await listApiKeys(database, ada.id)).find((listed) => listed.id === apiKey.id)?.lastUsedAt?.toISOString()).toBe(usedAt.toISOString());

    const notTheirs = await revokeApiKey(database, grace.id, apiKey.id).catch((error: unknown) => error);
    expect(isRathError(notTheirs, "not_found")).toBe(true);
    expect(await verifyApiKey(database, key)).not.toBeNull();
    await revokeApiKey(database, ada.id, apiKey.id);
    expect(await verifyApiKey(database, key)).toBeNull();
    expect(await verifyApiKey(database, second.key)).not.toBeNull();
    await expect(createApiKey(database, ada.id, "   ")).rejects.toThrow("name must not be empty");
  });

  it("resolves a bearer key, a session cookie, or nobody, by the policy", async () => {
    const { database } = await open();
    const ada = await createAccount(database, { email: "ada@example.com", name: "Ada", password: "analytical-engine" });
    const { apiKey, key } = await createApiKey(database, ada.id, "script");
    const signedIn = await signInWithPassword(database, { email: "ada@example.com", password: "analytical-engine" });
    const cookie = signedIn.headers.getSetCookie().map((line) => line.split(";", 1)[0]).join("; ");

    for (const policy of [signInPolicy(), loopbackPolicy()]) {
      expect(await resolvePrincipal(request({ authorization: `Bearer ${key}` }), policy, database)).toEqual({ kind: "api-key", userId: ada.id, keyId: apiKey.id });
      expect(await resolvePrincipal(request({ cookie }), policy, database)).toEqual({ kind: "user", userId: ada.id, email: "ada@example.com", name: "Ada" });
      // Wrong explicit credentials: refused whatever the policy.
      for (const authorization of [`Bearer rath_${"x".repeat(43)}`, "Bearer nonsense", "Basic YWRhOnB3", `bearer ${key}x`]) {
        expect(await resolvePrincipal(request({ authorization }), policy, database), authorization).toBeNull();
      }
    }
    expect(await resolvePrincipal(request(), signInPolicy(), database)).toBeNull();
    expect(await resolvePrincipal(request(), loopbackPolicy(), database)).toEqual({ kind: "anonymous-loopback" });
    const stale = "rath.session_token=stale.signature";
    expect(await resolvePrincipal(request({ cookie: stale }), signInPolicy(), database)).toBeNull();
    expect(await resolvePrincipal(request({ cookie: stale }), loopbackPolicy(), database)).toEqual({ kind: "anonymous-loopback" });
  });
});
