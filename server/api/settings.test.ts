import { expect, it } from "vitest";
import { readProviderApiKeyForEngine } from "../db/provider-settings-store";
import { describeEachDatabase } from "../db/testing/test-databases";
import { callerFor, expectApiError } from "./testing/api-harness";

const KEY = "sk-test-DO-NOT-LEAK-0123456789";

describeEachDatabase("settings router", (open) => {
  it("stores API keys server-side and never returns them", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const responses: unknown[] = [];
    const saved = await api.settings.providers.upsert({ name: "openai-main", kind: "openai", model: "gpt-test", apiKey: KEY });
    responses.push(saved);
    expect(saved).toMatchObject({ name: "openai-main", kind: "openai", model: "gpt-test", hasApiKey: true });
    expect(await readProviderApiKeyForEngine(database, "openai-main")).toBe(KEY);

    const kept = await api.settings.providers.upsert({ name: "openai-main", kind: "openai", model: "gpt-other" });
    responses.push(kept);
    expect(kept.hasApiKey).toBe(true);
    expect(await readProviderApiKeyForEngine(database, "openai-main")).toBe(KEY);

    responses.push(await api.settings.providers.upsert({ name: "local", kind: "openai", baseUrl: "http://127.0.0.1:11434/v1" }));
    const listed = await api.settings.providers.list();
    responses.push(listed);
    expect(listed.map((provider) => [provider.name, provider.hasApiKey])).toEqual([
      ["local", false],
      ["openai-main", true],
    ]);

    const removedKey = await api.settings.providers.upsert({ name: "openai-main", kind: "openai", apiKey: null });
    responses.push(removedKey);
    expect(removedKey.hasApiKey).toBe(false);
    expect(await readProviderApiKeyForEngine(database, "openai-main")).toBeNull();

    responses.push(await api.settings.providers.delete({ name: "local" }));
    const gone = await expectApiError(api.settings.providers.delete({ name: "local" }), "NOT_FOUND");
    responses.push(gone);
    for (const response of responses) expect(JSON.stringify(response)).not.toContain(KEY);
    expect((await api.settings.providers.list()).map((provider) => provider.name)).toEqual(["openai-main"]);
  });

  it("refuses an unknown kind or a bad base url per field, without echoing the key", async () => {
    const { database } = await open();
    const api = callerFor(database);
    const error = await expectApiError(api.settings.providers.upsert({ name: "x", kind: "mystery" as "openai", baseUrl: "not a url", apiKey: KEY }), "BAD_REQUEST");
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual(["baseUrl", "kind"]);
    expect(JSON.stringify(error)).not.toContain(KEY);
    expect(await api.settings.providers.list()).toEqual([]);
  });

  it("accepts only http(s) base URLs, naming the field and the rule", async () => {
    const { database } = await open();
    const api = callerFor(database);
    for (const baseUrl of ["file:///etc/passwd", "javascript:alert(1)", "ftp://models.example/v1", "data:text/plain,hi", "gopher://127.0.0.1:5432/"]) {
      const error = await expectApiError(api.settings.providers.upsert({ name: "bad", kind: "openai", baseUrl, apiKey: KEY }), "BAD_REQUEST");
      expect(error.fieldErrors, baseUrl).toEqual({ baseUrl: ["baseUrl must start with http:// or https://"] });
      expect(JSON.stringify(error)).not.toContain(KEY);
    }
    expect((await expectApiError(api.settings.providers.upsert({ name: "bad", kind: "openai", baseUrl: "models.example/v1" }), "BAD_REQUEST")).fieldErrors).toEqual({
      baseUrl: ["baseUrl must be a URL, like https://api.openai.com/v1"],
    });
    expect(await api.settings.providers.list()).toEqual([]);
    for (const baseUrl of ["https://api.openai.com/v1", "HTTP://127.0.0.1:11434/v1"]) {
      expect((await api.settings.providers.upsert({ name: "good", kind: "openai", baseUrl })).baseUrl).toBe(baseUrl);
    }
  });
});
