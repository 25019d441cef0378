import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RathError } from "../errors";
import { startChatCompletionsServer } from "../testing/chat-completions-server";
import { createProviderFromConfig, loadProviderConfig } from "./config";

const directory = mkdtempSync(join(tmpdir(), "rath-provider-config-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let fileCount = 0;
function configFile(content: unknown): string {
  fileCount += 1;
  const path = join(directory, `rath.config.${fileCount}.json`);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

function configError(run: () => unknown): RathError {
  try {
    run();
  } catch (error) {
    if (error instanceof RathError) return error;
    throw error;
  }
  throw new Error("expected a RathError");
}

describe("loadProviderConfig", () => {
  it("is empty without variables or file", () => {
    expect(loadProviderConfig({ env: {} })).toEqual({ defaultProvider: null, providers: {} });
  });

  it("reads OPENAI_* and ANTHROPIC_* variables, preferring openai as the default", () => {
    const config = loadProviderConfig({
      env: {
        OPENAI_API_KEY: "sk-openai-key-1234",
        OPENAI_BASE_URL: "http://localhost:11434/v1",
        OPENAI_DEFAULT_MODEL: "llama3.2",
        ANTHROPIC_API_KEY: "sk-ant-key-1234",
        ANTHROPIC_DEFAULT_MODEL: "claude-x",
        ANTHROPIC_BASE_URL: "",
      },
    });
    expect(config.defaultProvider).toBe("openai");
    expect(config.providers).toEqual({
      openai: { name: "openai", kind: "openai", apiKey: "sk-openai-key-1234", baseURL: "http://localhost:11434/v1", model: "llama3.2", source: "env" },
      anthropic: { name: "anthropic", kind: "anthropic", apiKey: "sk-ant-key-1234", model: "claude-x", source: "env" },
    });
  });

  it("lets RATH_PROVIDER choose the default, and refuses a name that is not configured", () => {
    expect(loadProviderConfig({ env: { OPENAI_API_KEY: "k1234", ANTHROPIC_API_KEY: "k5678", RATH_PROVIDER: "anthropic" } }).defaultProvider).toBe("anthropic");
    expect(loadProviderConfig({ env: { RATH_PROVIDER: "scripted" } }).defaultProvider).toBe("scripted");
    const error = configError(() => loadProviderConfig({ env: { OPENAI_API_KEY: "k1234", RATH_PROVIDER: "anthropc" } }));
    expect(error.code).toBe("invalid_config");
    expect(error.message).toBe("RATH_PROVIDER names provider 'anthropc', but the configured providers are: openai");
  });

  it("reads providers from a config file, with keys from the variables they name", () => {
    const path = configFile({
      defaultProvider: "local",
      server: { port: 3000 },
      providers: {
        local: { kind: "openai", baseURL: "http://127.0.0.1:1234/v1", model: "qwen", apiKeyEnv: "LMSTUDIO_KEY", maxRetries: 1 },
        claude: { kind: "anthropic", model: "claude-y" },
        vllm: { kind: "openai", baseURL: "http://127.0.0.1:8000/v1" },
      },
    });
    const config = loadProviderConfig({ env: { LMSTUDIO_KEY: "lm-key-9999", ANTHROPIC_API_KEY: "sk-ant-file-1234", OPENAI_API_KEY: "sk-hosted-key-1234" }, configFile: path });
    expect(config.defaultProvider).toBe("local");
    expect(config.providers.local).toEqual({ name: "local", kind: "openai", apiKey: "lm-key-9999", baseURL: "http://127.0.0.1:1234/v1", model: "qwen", maxRetries: 1, source: "file" });
    expect(config.providers.claude).toEqual({ name: "claude", kind: "anthropic", apiKey: "sk-ant-file-1234", model: "claude-y", source: "file" });
    // An entry with its own baseURL does not borrow the hosted service's key.
    expect(config.providers.vllm).toEqual({ name: "vllm", kind: "openai", baseURL: "http://127.0.0.1:8000/v1", source: "file" });
  });

  it("lets environment variables override the file's entry of the same name", () => {
    const path = configFile({ providers: { openai: { kind: "openai", model: "gpt-from-file", timeoutMs: 5000 } } });
    const config = loadProviderConfig({ env: { OPENAI_DEFAULT_MODEL: "gpt-from-env", OPENAI_API_KEY: "sk-env-key-1234" }, configFile: path });
    expect(config.providers.openai).toEqual({ name: "openai", kind: "openai", apiKey: "sk-env-key-1234", model: "gpt-from-env", timeoutMs: 5000, source: "file+env" });
  });

  it("names the field in validation errors", () => {
    const path = configFile({ providers: { local: { kind: "olama", baseURL: "not a url", maxRetries: -1 } } });
    const error = configError(() => loadProviderConfig({ env: {}, configFile: path }));
    expect(error.code).toBe("invalid_config");
    expect(error.message).toContain(`config file ${path} is invalid: `);
    expect(error.message).toContain('providers.local.kind: ');
    expect(error.message).toContain('(found "olama")');
    expect(error.message).toContain('providers.local.baseURL: ');
    expect(error.message).toContain("providers.local.maxRetries: ");
  });

  it("refuses API keys written into the file and says where they belong", () => {
    const path = configFile({ providers: { openai: { kind: "openai", apiKey: "sk-in-file-1234" } } });
    const error = configError(() => loadProviderConfig({ env: {}, configFile: path }));
    expect(error.message).toContain("providers.openai: unknown field 'apiKey' (keys do not belong in the file: put the key in an environment variable and name it with apiKeyEnv)");
    expect(error.message).not.toContain("sk-in-file-1234");
  });

  it("does not echo a key pasted into apiKeyEnv", () => {
    const path = configFile({ providers: { openai: { kind: "openai", apiKeyEnv: "sk-pasted-by-mistake-1234" } } });
    const error = configError(() => loadProviderConfig({ env: {}, configFile: path }));
    expect(error.message).toContain("providers.openai.apiKeyEnv: must be an environment variable name such as MY_API_KEY");
    expect(error.message).not.toContain("sk-pasted-by-mistake-1234");
  });

  it("reports a missing file, invalid JSON and a bad OPENAI_BASE_URL", () => {
    expect(configError(() => loadProviderConfig({ env: {}, configFile: join(directory, "absent.json") })).message).toBe(
      `config file ${join(directory, "absent.json")} does not exist`,
    );
    expect(configError(() => loadProviderConfig({ env: {}, configFile: configFile("{ not json") })).message).toMatch(/is not valid JSON: /);
    expect(configError(() => loadProviderConfig({ env: { OPENAI_BASE_URL: "localhost:11434" } })).message).toBe(
      'OPENAI_BASE_URL must be an http(s) URL such as http://localhost:11434/v1, found "localhost:11434"',
    );
  });

  it("never echoes a key pasted into OPENAI_BASE_URL or ANTHROPIC_BASE_URL", () => {
    const pasted = [
      { OPENAI_BASE_URL: "sk-proj-abcdefghijklmnop1234" },
      { ANTHROPIC_BASE_URL: "0123456789abcdef0123456789abcdef" },
      { OPENAI_API_KEY: "azure-key-1234", OPENAI_BASE_URL: "myhost/azure-key-1234" },
    ];
    for (const env of pasted) {
      const message = configError(() => loadProviderConfig({ env })).message;
      expect(message).toMatch(/_BASE_URL must be an http\(s\) URL/);
      expect(message).not.toMatch(/sk-proj-abcdefghijklmnop1234|0123456789abcdef0123456789abcdef|azure-key-1234/);
    }
  });
});

describe("createProviderFromConfig", () => {
  it("creates the default provider, which talks to the configured base URL with the configured key and model", async () => {
    const server = await startChatCompletionsServer({ script: [{ type: "completion", content: "configured" }] });
    try {
      const config = loadProviderConfig({ env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "sk-config-key-1234", OPENAI_DEFAULT_MODEL: "local-model" } });
      const provider = createProviderFromConfig(config);
      expect(provider).toMatchObject({ name: "openai", kind: "openai", defaultModel: "local-model" });
      const response = await provider.complete({ model: "", messages: [{ role: "user", content: "hi" }] });
      expect(response.content).toBe("configured");
      expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-config-key-1234");
      expect((server.requests[0]?.body as { model: string }).model).toBe("local-model");
    } finally {
      await server.close();
    }
  });

  it("creates an Anthropic provider by name", () => {
    const config = loadProviderConfig({ env: { ANTHROPIC_API_KEY: "sk-ant-1234", OPENAI_API_KEY: "sk-1234" } });
    expect(createProviderFromConfig(config, { name: "anthropic" })).toMatchObject({ name: "anthropic", kind: "anthropic" });
  });

  it("passes apiKeyHeader through for Azure-style endpoints", async () => {
    const server = await startChatCompletionsServer({ script: [{ type: "completion", content: "ok" }] });
    try {
      const path = configFile({ providers: { azure: { kind: "openai", baseURL: server.baseURL, apiKeyEnv: "AZURE_OPENAI_API_KEY", apiKeyHeader: "api-key", model: "gpt-deployment" } } });
      const provider = createProviderFromConfig(loadProviderConfig({ env: { AZURE_OPENAI_API_KEY: "azure-key-1234" }, configFile: path }));
      await provider.complete({ model: "", messages: [{ role: "user", content: "hi" }] });
      expect(server.requests[0]?.headers["api-key"]).toBe("azure-key-1234");
      expect(server.requests[0]?.headers.authorization).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it("explains what to set when nothing is configured, a name is unknown or a hosted endpoint has no key", () => {
    expect(configError(() => createProviderFromConfig(loadProviderConfig({ env: {} }))).message).toMatch(/^no model provider is configured: set OPENAI_API_KEY/);
    expect(configError(() => createProviderFromConfig(loadProviderConfig({ env: { OPENAI_API_KEY: "sk-1234" } }), { name: "mistral" })).message).toBe(
      "unknown provider 'mistral'; configured: openai",
    );
    const noKey = loadProviderConfig({ env: { OPENAI_DEFAULT_MODEL: "gpt-x" } });
    expect(configError(() => createProviderFromConfig(noKey)).message).toBe(
      "provider 'openai' (openai) has no API key: set OPENAI_API_KEY, or point OPENAI_BASE_URL at a server that needs none",
    );
  });
});
