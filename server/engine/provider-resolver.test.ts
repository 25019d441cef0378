import { expect, it } from "vitest";
import { saveProviderSetting } from "../db/provider-settings-store";
import { describeEachDatabase } from "../db/testing/test-databases";
import { createProviderResolver } from "./provider-resolver";
import { createTestProvider } from "./testing/test-provider";

describeEachDatabase("provider resolver", (open) => {
  it("prefers fixed providers, maps scripted/demo to the demo provider, and builds stored settings", async () => {
    const { database } = await open();
    const fixed = createTestProvider();
    await saveProviderSetting(database, { name: "local-llm", kind: "openai", baseUrl: "http://127.0.0.1:9/v1", model: "tiny" });
    const resolve = createProviderResolver({ database, providers: { mine: fixed }, env: {} });
    expect(await resolve("mine")).toBe(fixed);
    const demo = await resolve("demo");
    expect(demo.defaultModel).toBe("scripted-demo");
    expect(await resolve("demo")).toBe(demo);
    const stored = await resolve("local-llm");
    expect(stored).toMatchObject({ kind: "openai", defaultModel: "tiny" });
  });

  it("falls back to the demo provider when nothing can build the provider, unless told not to", async () => {
    const { database } = await open();
    expect((await createProviderResolver({ database, env: {} })("openai")).defaultModel).toBe("scripted-demo");
    await expect(createProviderResolver({ database, env: {}, fallbackToDemo: false })("openai")).rejects.toThrow(/unknown provider 'openai'/);
  });

  it("names an unconfigured provider other than openai/anthropic as not configured, even with the demo fallback on", async () => {
    const { database } = await open();
    await expect(createProviderResolver({ database, env: {} })("acme")).rejects.toThrow(/^provider 'acme' is not configured: no provider of that name in Settings/);
  });

  it("builds stored providers afresh at every call, so a changed setting applies to the next run", async () => {
    const { database } = await open();
    const resolve = createProviderResolver({ database, env: {} });
    await saveProviderSetting(database, { name: "local-llm", kind: "openai", baseUrl: "http://127.0.0.1:9/v1", model: "tiny" });
    expect(await resolve("local-llm")).toMatchObject({ defaultModel: "tiny" });
    await saveProviderSetting(database, { name: "local-llm", kind: "openai", baseUrl: "http://127.0.0.1:9/v1", model: "bigger" });
    expect(await resolve("local-llm")).toMatchObject({ defaultModel: "bigger" });
  });
});
