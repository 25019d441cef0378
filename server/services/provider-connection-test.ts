/**
 * "Test connection" of the settings page: ONE real completion request, made from the server with the stored
 * settings and key (no retry, no fallback to the demo provider), whose answer or error goes back to the browser.
 * The key never leaves the server: the answer and the error text are passed through `redactSecrets` with the
 * key itself as a secret, in case a provider echoes it.
 */
import { isRathError, RathError } from "../../runtime/errors";
import { createProviderFromConfig, ProviderKind } from "../../runtime/providers/config";
import { redactSecrets } from "../../runtime/providers/redact";
import type { Provider } from "../../runtime/providers/types";
import type { Database } from "../db/database";
import { getProviderSetting, readProviderApiKeyForEngine } from "../db/provider-settings-store";
import { createDemoProvider } from "../../runtime/providers/demo-provider";
import { DEMO_PROVIDER_NAMES } from "../engine/provider-resolver";

/** What the test found: the model's answer, or the provider's error. */
export type ConnectionTestResult =
  | { ok: true; provider: string; model: string; answer: string; latencyMs: number; totalTokens: number | null }
  | { ok: false; provider: string; model: string | null; error: string; code: string };

/** The prompt of the test request: short, so a test costs a few tokens. */
export const CONNECTION_TEST_PROMPT = "This is a connection test from Rath Studio. Reply with one short sentence.";

const MAX_ANSWER_CHARACTERS = 600;

async function buildProvider(database: Database, name: string): Promise<{ provider: Provider; model: string | null; key: string | null }> {
  if (DEMO_PROVIDER_NAMES.includes(name)) return { provider: createDemoProvider(), model: null, key: null };
  const setting = await getProviderSetting(database, name);
  if (setting === null) throw new RathError("not_found", `provider setting '${name}' not found; save it before testing it`);
  const kind = ProviderKind.safeParse(setting.kind);
  if (!kind.success) throw new RathError("invalid_config", `provider setting '${name}' has kind '${setting.kind}'; expected ${ProviderKind.options.join(" or ")}`);
  const key = await readProviderApiKeyForEngine(database, name);
  const provider = createProviderFromConfig(
    {
      defaultProvider: name,
      providers: {
        [name]: {
          name,
          kind: kind.data,
          source: "file",
          ...(key === null ? {} : { apiKey: key }),
          ...(setting.baseUrl === null ? {} : { baseURL: setting.baseUrl }),
          ...(setting.model === null ? {} : { model: setting.model }),
          maxRetries: 0,
        },
      },
    },
    { retry: { maxRetries: 0 } },
  );
  return { provider, model: setting.model, key };
}

/** Sends one request to the named provider and reports the answer or the error (never throws for a provider failure). */
export async function testProviderConnection(database: Database, name: string, options: { timeoutMs?: number } = {}): Promise<ConnectionTestResult> {
  let built: Awaited<ReturnType<typeof buildProvider>>;
  try {
    built = await buildProvider(database, name);
  } catch (error) {
    if (isRathError(error, "not_found")) throw error;
    return { ok: false, provider: name, model: null, code: isRathError(error) ? error.code : "invalid_config", error: error instanceof Error ? error.message : String(error) };
  }
  const { provider, key } = built;
  const model = built.model ?? provider.defaultModel ?? "";
  const secrets = key === null ? [] : [key];
  try {
    const response = await provider.complete(
      { model, messages: [{ role: "user", content: CONNECTION_TEST_PROMPT }], maxTokens: 64 },
      { signal: AbortSignal.timeout(options.timeoutMs ?? 20_000) },
    );
    const answer = (response.content ?? "").trim();
    return {
      ok: true,
      provider: name,
      model: response.model || model,
      answer: redactSecrets(answer.length > MAX_ANSWER_CHARACTERS ? `${answer.slice(0, MAX_ANSWER_CHARACTERS)}…` : answer || "(an empty answer)", { secrets }),
      latencyMs: response.latencyMs,
      totalTokens: response.usage?.total_tokens ?? null,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, provider: name, model, code: isRathError(error) ? error.code : "provider_error", error: redactSecrets(message, { secrets }) };
  }
}
