import { expect, it } from "vitest";
import {
  deleteProviderSetting,
  getProviderSetting,
  listProviderSettings,
  readProviderApiKeyForEngine,
  saveProviderSetting,
} from "./provider-settings-store";
import { describeEachDatabase } from "./testing/test-databases";

describeEachDatabase("provider settings", (open) => {
  it("never returns the key, except through the engine's internal reader", async () => {
    const { database } = await open();
    const saved = await saveProviderSetting(database, { name: "openai", kind: "openai-compatible", baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKey: "sk-secret" });
    expect(saved).toMatchObject({ name: "openai", kind: "openai-compatible", baseUrl: "http://127.0.0.1:9/v1", model: "m", hasApiKey: true });
    expect(JSON.stringify(saved)).not.toContain("sk-secret");
    expect(JSON.stringify(await listProviderSettings(database))).not.toContain("sk-secret");
    expect(JSON.stringify(await getProviderSetting(database, "openai"))).not.toContain("sk-secret");
    expect(await readProviderApiKeyForEngine(database, "openai")).toBe("sk-secret");

    const kept = await saveProviderSetting(database, { name: "openai", kind: "openai-compatible", model: "m2" });
    expect(kept).toMatchObject({ model: "m2", baseUrl: null, hasApiKey: true });
    expect(await readProviderApiKeyForEngine(database, "openai")).toBe("sk-secret");
    const cleared = await saveProviderSetting(database, { name: "openai", kind: "openai-compatible", apiKey: null });
    expect(cleared.hasApiKey).toBe(false);
    expect(await readProviderApiKeyForEngine(database, "openai")).toBeNull();

    await saveProviderSetting(database, { name: "anthropic", kind: "anthropic" });
    expect((await listProviderSettings(database)).map((setting) => setting.name)).toEqual(["anthropic", "openai"]);
    expect(await deleteProviderSetting(database, "anthropic")).toBe(true);
    expect(await deleteProviderSetting(database, "anthropic")).toBe(false);
    expect(await getProviderSetting(database, "anthropic")).toBeNull();
    expect(await readProviderApiKeyForEngine(database, "missing")).toBeNull();
    await expect(saveProviderSetting(database, { name: "bad", kind: "x", baseUrl: "not a url" })).rejects.toThrow();
  });
});
